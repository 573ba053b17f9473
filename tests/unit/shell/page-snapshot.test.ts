import { describe, expect, it } from "vitest";
import { snapshotFile, withSnapshot, withStartAfterPaint } from "../../../scripts/lib/prerender";
import { SNAPSHOT_CLASS, releaseSnapshot } from "../../../src/lib/snapshot";

const indexHtml = `<!doctype html>
<html lang="en">
  <head>
    <title>Tuning Portal</title>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-def.js">
    <link rel="modulepreload" crossorigin href="/assets/antd-ghi.js">
  </head>
  <body>
    <div id="root"><div class="app-loading" role="status"><img src="/favicon.svg" width="40" height="40" alt="" />Loading the portal…</div></div>
  </body>
</html>`;

const narrow = { html: '<header class="bar narrow-bar"><button>Menu</button></header><h1 class="title">Sign in</h1>', styles: '<style data-css-hash="a">.bar{height:64px}.narrow-bar{gap:8px}.unused{color:red}</style><style data-ant-cssinjs-cache-path="">.data-ant-cssinjs-cache-path{content:"a|b"}</style>' };
const wide = { html: '<header class="bar"><nav>Home</nav></header><h1 class="title">Sign in</h1>', styles: '<style data-css-hash="b">.title{font-size:38px}</style>' };

describe("a public page's snapshot in index.html", () => {
  const page = withSnapshot(indexHtml, narrow, wide, "/assets/antd-abc.css");

  it("puts the narrow and the wide snapshot before the app's root, inert and hidden from assistive technology", () => {
    expect(page).toContain(`<div class="${SNAPSHOT_CLASS} ${SNAPSHOT_CLASS}-narrow" inert aria-hidden="true">${narrow.html}</div><div class="${SNAPSHOT_CLASS} ${SNAPSHOT_CLASS}-wide" inert aria-hidden="true">${wide.html}</div><div id="root"></div>`);
  });

  it("leaves out the loading notice the app's root holds on other pages: the snapshot is the page", () => {
    expect(page).not.toContain("Loading the portal");
  });

  it("starts the app after the first paint, with the modules the entry imports, instead of as a module script of the page", () => {
    expect(page).not.toContain('<script type="module"');
    expect(page).not.toContain("modulepreload");
    expect(page).toContain('<script src="/start-after-paint.js" data-entry="/assets/index-abc.js" data-preload="/assets/react-def.js /assets/antd-ghi.js" data-stylesheet="/assets/antd-abc.css"></script>');
  });

  it("carries in the head only the CSS the snapshots use, without the style engine's own bookkeeping", () => {
    const head = page.slice(0, page.indexOf("</head>"));
    expect(head).toContain(".bar{height:64px}.narrow-bar{gap:8px}.title{font-size:38px}");
    expect(head).not.toContain(".unused");
    expect(head).not.toContain("data-ant-cssinjs-cache-path");
    expect(head).toContain(`<style data-${SNAPSHOT_CLASS}>`);
  });

  it("refuses an index.html it cannot place a snapshot in", () => {
    expect(() => withSnapshot(indexHtml.replace('<div id="root">', '<div id="app">'), narrow, wide, "/a.css")).toThrow(/#root/);
    expect(() => withSnapshot(indexHtml.replace(/<script type="module"[^>]*><\/script>/, ""), narrow, wide, "/a.css")).toThrow(/module entry/);
  });

  it("index.html paints its loading notice first: the entry, its preloads and antd's stylesheet start after the first paint", () => {
    const page = withStartAfterPaint(indexHtml, "/assets/antd-abc.css");
    expect(page).toContain(
      'Loading the portal…</div></div><script src="/start-after-paint.js" data-entry="/assets/index-abc.js" data-preload="/assets/react-def.js /assets/antd-ghi.js" data-stylesheet="/assets/antd-abc.css"></script>',
    );
    expect(page).not.toContain('<script type="module"');
    expect(page).not.toContain("modulepreload");
    expect(page).not.toContain('rel="stylesheet" href="/assets/antd-abc.css"');
  });

  it("writes / as pages/index.html and a nested path in its folder", () => {
    expect(snapshotFile("/")).toBe("pages/index.html");
    expect(snapshotFile("/legal/terms")).toBe("pages/legal/terms.html");
  });

  it("is removed with its styles when the app's page is on screen", () => {
    const removed: string[] = [];
    const element = (name: string) => ({ remove: () => removed.push(name) });
    releaseSnapshot({ querySelectorAll: ((selector: string) => (selector.includes(SNAPSHOT_CLASS) ? [element("narrow"), element("wide"), element("style")] : [])) as never });
    expect(removed).toEqual(["narrow", "wide", "style"]);
  });
});
