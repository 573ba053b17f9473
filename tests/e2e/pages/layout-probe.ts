import { type Page, expect } from "@playwright/test";

/** What a visitor sees of a page's frame at the current window size: scrolling, the title, the navigation. */
export class LayoutProbe {
  constructor(private readonly page: Page) {}

  /** How far the page is wider than the window (0 when it does not scroll sideways). */
  sidewaysOverflow(): Promise<number> {
    return this.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  }

  /** The element on top at the title's first letter, described, or null when it is the title itself. */
  titleCoveredBy(): Promise<string | null> {
    return this.page.evaluate(() => {
      const title = [...document.querySelectorAll("h2")].find((heading) => heading.getClientRects().length > 0);
      if (!title) return "no visible h2";
      const walker = document.createTreeWalker(title, NodeFilter.SHOW_TEXT, { acceptNode: (node) => (node.textContent?.trim() ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP) });
      const text = walker.nextNode();
      if (!text) return null;
      const range = document.createRange();
      const start = text.textContent!.search(/\S/);
      range.setStart(text, start);
      range.setEnd(text, start + 1);
      const letter = range.getBoundingClientRect();
      const found = document.elementFromPoint(letter.left + letter.width / 2, letter.top + letter.height / 2);
      if (found && title.contains(found)) return null;
      return found ? `${found.tagName.toLowerCase()}.${[...found.classList].join(".")} "${found.textContent?.slice(0, 30) ?? ""}"` : "nothing (title off screen)";
    });
  }

  /** The site's or the portal's menu, or the button that opens it. */
  async expectNavigationReachable() {
    const menuButton = this.page.getByRole("button", { name: "Menu", exact: true });
    const menu = this.page.locator(".ant-layout-sider .ant-menu, header .ant-menu-horizontal, aside .ant-menu");
    await expect(menuButton.or(menu).first(), "a menu or the button that opens it is visible").toBeVisible();
  }

  signOutControls() {
    return this.page.getByText("Sign out", { exact: true }).filter({ visible: true });
  }
}
