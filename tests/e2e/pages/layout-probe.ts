import { expect, type Page } from "@playwright/test";

/** What a visitor sees of a page's frame at the current window size: scrolling, the title, the navigation. */
export class LayoutProbe {
  constructor(private readonly page: Page) {}

  /**
   * Moves the app to `path` as its own links do (the router follows the history's popstate), and waits
   * until it has shown that page: both shells name the tab anew once a new page is on screen, so the
   * title is blanked first. A page whose code is still loading keeps the previous one on screen until then.
   */
  async openInApp(path: string) {
    await this.page.evaluate((target) => {
      document.title = "";
      window.history.pushState(null, "", target);
      window.dispatchEvent(new PopStateEvent("popstate", { state: null }));
    }, path);
    await this.page.waitForFunction(() => document.title !== "", undefined, { timeout: 15_000 });
  }

  /** Whether a toast shows (it would cover the next page's title for its few seconds). */
  async toastShown(): Promise<boolean> {
    return (await this.page.getByRole("region", { name: "Notification" }).locator('li[data-state="open"]').count()) > 0;
  }

  /** Waits until the app has replaced the page's snapshot, then (up to 5 s) until no spinner or loading skeleton shows, then a moment for the last paint. */
  async settled() {
    // A public page's build-time snapshot (src/lib/snapshot.ts) is for reading only: the layout checked is the app's, which replaces it.
    // A generous limit: with the main browser run beside the walk, a slow machine can take many seconds
    // to start the app after the page's HTML, and the page then draws as it should.
    await this.page.waitForFunction(() => !document.querySelector(".page-snapshot"), undefined, { timeout: 30_000 });
    // Shown ones only: a page kept alive off screen keeps its placeholders (the landing's table that loads near view).
    await this.page
      .waitForFunction(
        () =>
          ![...document.querySelectorAll(".ant-spin-spinning, .ant-skeleton-active")].some(
            (element) => element.getClientRects().length > 0,
          ),
        undefined,
        { timeout: 5_000 },
      )
      .catch(() => undefined);
    await this.page.waitForTimeout(100);
  }

  /** Side-menu labels shown cut short (an ellipsis instead of their end), by their full text. */
  cutMenuLabels(): Promise<string[]> {
    return this.page.evaluate(() =>
      [
        ...document.querySelectorAll<HTMLElement>(
          ".ant-layout-sider .ant-menu-title-content, .ant-drawer .ant-menu-title-content",
        ),
      ]
        .filter((label) => label.getClientRects().length > 0 && label.scrollWidth > label.clientWidth + 1)
        .map((label) => label.textContent ?? ""),
    );
  }

  /** The innermost elements reaching past the window's right edge (what makes the page scroll sideways), described. */
  overflowingElements(): Promise<string[]> {
    return this.page.evaluate(() => {
      // What a frame of its own scrolls or clips (a wide table) does not widen the page.
      const clipped = (element: Element) => {
        for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
          if (getComputedStyle(parent).overflowX !== "visible") return true;
        }
        return false;
      };
      const past = (element: Element) =>
        element.getBoundingClientRect().right > window.innerWidth + 1 && !clipped(element);
      const found = [...document.body.querySelectorAll("*")].filter(
        (element) => element.getClientRects().length > 0 && past(element) && ![...element.children].some(past),
      );
      return found
        .slice(0, 3)
        .map(
          (element) =>
            `${element.tagName.toLowerCase()}${element.className && typeof element.className === "string" ? `.${element.className.trim().split(/\s+/).join(".")}` : ""} (right edge ${Math.round(element.getBoundingClientRect().right)} px)`,
        );
    });
  }

  /** How far the page is wider than the window (0 when it does not scroll sideways). */
  sidewaysOverflow(): Promise<number> {
    return this.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  }

  /** The element on top at the title's first letter, described, or null when it is the title itself. */
  titleCoveredBy(): Promise<string | null> {
    return this.page.evaluate(() => {
      // The page title: an open drawer's (a record or form opened over its list, on a route of its own),
      // else a portal page's h2, a public or full-screen page's h1 or h3.
      const drawerTitle = [...document.querySelectorAll(".ant-drawer-open .ant-drawer-title")].find(
        (heading) => heading.getClientRects().length > 0,
      );
      const title =
        drawerTitle ??
        [...document.querySelectorAll("h1, h2, h3")].find((heading) => heading.getClientRects().length > 0);
      if (!title) return "no visible heading";
      const walker = document.createTreeWalker(title, NodeFilter.SHOW_TEXT, {
        acceptNode: (node) => (node.textContent?.trim() ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP),
      });
      const text = walker.nextNode();
      if (!text) return null;
      const range = document.createRange();
      const start = text.textContent!.search(/\S/);
      range.setStart(text, start);
      range.setEnd(text, start + 1);
      const letter = range.getBoundingClientRect();
      const found = document.elementFromPoint(letter.left + letter.width / 2, letter.top + letter.height / 2);
      if (found && title.contains(found)) return null;
      return found
        ? `${found.tagName.toLowerCase()}.${[...found.classList].join(".")} "${found.textContent?.slice(0, 30) ?? ""}"`
        : "nothing (title off screen)";
    });
  }

  /** The site's or the portal's menu, the button that opens it, a full-screen page's way back to the portal, or a bare page's brand link. */
  async expectNavigationReachable() {
    // The error page (a record that is not the caller's, on a page without layout) leads home with its button.
    const menuButton = this.page
      .getByRole("button", { name: "Menu", exact: true })
      .or(this.page.getByRole("link", { name: "Back to the portal" }))
      .or(this.page.getByRole("button", { name: "Go Home" }));
    const menu = this.page.locator(".ant-layout-sider .ant-menu, header .ant-menu-horizontal, aside .ant-menu");
    // The account pages have no layout: their brand mark is the way to the site.
    const brandOfBarePage = this.page
      .getByRole("link", { name: "Tuning Portal" })
      .and(this.page.locator("a:not(.ant-layout-header a, .ant-layout-sider a)"));
    // Pages kept alive off screen (src/components/keep-alive-routes.tsx) keep their hidden frames: only what shows counts.
    const shown = menuButton.or(menu).or(brandOfBarePage).filter({ visible: true }).first();
    await expect(shown, "a menu, the button that opens it, or a bare page's brand link is visible").toBeVisible();
  }

  /** The text of the side menu's highlighted item, or null. */
  async selectedMenuItem(): Promise<string | null> {
    const item = this.page.locator(".ant-layout-sider .ant-menu-item-selected").filter({ visible: true });
    return (await item.count()) ? (await item.first().innerText()).trim() : null;
  }

  breadcrumb() {
    return this.page.locator(".ant-breadcrumb").filter({ visible: true }).first();
  }

  signOutControls() {
    return this.page.getByText("Sign out", { exact: true }).filter({ visible: true });
  }
}
