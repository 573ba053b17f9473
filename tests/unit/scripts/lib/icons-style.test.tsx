// @vitest-environment jsdom
import { SearchOutlined } from "@ant-design/icons";
import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ICONS_STYLE, withStartAfterPaint } from "../../../../scripts/lib/prerender";

afterEach(() => {
  cleanup();
  document.head.replaceChildren();
});

const indexHtml = `<!doctype html><html><head><meta charset="UTF-8" /><title>Tuning Portal</title><style>.app-loading{}</style>
<script type="module" crossorigin src="/assets/index-abc.js"></script></head><body><div id="root"></div></body></html>`;

/** The head of the built page, parsed as the browser parses it. */
function headOf(html: string) {
  return new DOMParser().parseFromString(html, "text/html").head;
}

describe("the icons' style in the built page", () => {
  it("comes before the page's other styles", () => {
    const styles = [...headOf(withStartAfterPaint(indexHtml, "/assets/antd-abc.css")).querySelectorAll("style")];
    expect(styles.map((style) => style.getAttribute("rc-util-key"))).toEqual(["@ant-design-icons", null]);
  });

  it("is the one the icons find when the first mounts: they write no style of their own", () => {
    document.head.append(...headOf(withStartAfterPaint(indexHtml, "/a.css")).childNodes);
    const built = document.head.querySelector('style[rc-util-key="@ant-design-icons"]')!;
    const text = built.textContent;
    render(<SearchOutlined />);
    const styles = document.head.querySelectorAll("style");
    expect(styles).toHaveLength(2);
    expect(styles[0]).toBe(built);
    expect(built.textContent).toBe(text);
  });

  it("would otherwise be written by the first icon that mounts", () => {
    render(<SearchOutlined />);
    expect(document.head.querySelector('style[rc-util-key="@ant-design-icons"]')?.outerHTML).toBe(
      headOf(ICONS_STYLE).innerHTML,
    );
  });
});
