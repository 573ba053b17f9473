import { describe, expect, it } from "vitest";
import {
  drawsPortalShell,
  PORTAL_SHELL_SNAPSHOT_STYLE,
  portalShellTitle,
  type RoutePageModule,
  snapshotFile,
  withPortalShell,
  withSnapshot,
  withStartAfterPaint,
} from "../../../../scripts/lib/prerender";
import { releaseSnapshot, SNAPSHOT_CLASS } from "../../../../src/lib/snapshot";

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

const narrow = {
  html: '<header class="bar narrow-bar"><button>Menu</button></header><h1 class="title">Sign in</h1>',
  styles:
    '<style data-css-hash="a">.bar{height:64px}.narrow-bar{gap:8px}.unused{color:red}</style><style data-ant-cssinjs-cache-path="">.data-ant-cssinjs-cache-path{content:"a|b"}</style>',
};
const wide = {
  html: '<header class="bar"><nav>Home</nav></header><h1 class="title">Sign in</h1>',
  styles: '<style data-css-hash="b">.title{font-size:38px}</style>',
};

describe("a public page's snapshot in index.html", () => {
  const page = withSnapshot(indexHtml, narrow, wide, "/assets/antd-abc.css");

  it("puts the narrow and the wide snapshot before the app's root, inert and hidden from assistive technology", () => {
    expect(page).toContain(
      `<div class="${SNAPSHOT_CLASS} ${SNAPSHOT_CLASS}-narrow" inert aria-hidden="true">${narrow.html}</div><div class="${SNAPSHOT_CLASS} ${SNAPSHOT_CLASS}-wide" inert aria-hidden="true">${wide.html}</div><div id="root"></div>`,
    );
  });

  it("leaves out the loading notice the app's root holds on other pages: the snapshot is the page", () => {
    expect(page).not.toContain("Loading the portal");
  });

  it("starts the app after the first paint, with the modules the entry imports, instead of as a module script of the page", () => {
    expect(page).not.toContain('<script type="module"');
    expect(page).not.toContain("modulepreload");
    expect(page).toContain(
      '<script src="/start-after-paint.js" data-entry="/assets/index-abc.js" data-preload="/assets/react-def.js /assets/antd-ghi.js" data-stylesheet="/assets/antd-abc.css"></script>',
    );
  });

  it("carries in the head only the CSS the snapshots use, without the style engine's own bookkeeping", () => {
    const head = page.slice(0, page.indexOf("</head>"));
    expect(head).toContain(".bar{height:64px}.narrow-bar{gap:8px}.title{font-size:38px}");
    expect(head).not.toContain(".unused");
    expect(head).not.toContain("data-ant-cssinjs-cache-path");
    expect(head).toContain(`<style data-${SNAPSHOT_CLASS}>`);
  });

  it("refuses an index.html it cannot place a snapshot in", () => {
    expect(() => withSnapshot(indexHtml.replace('<div id="root">', '<div id="app">'), narrow, wide, "/a.css")).toThrow(
      /#root/,
    );
    expect(() =>
      withSnapshot(indexHtml.replace(/<script type="module"[^>]*><\/script>/, ""), narrow, wide, "/a.css"),
    ).toThrow(/module entry/);
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
    releaseSnapshot({
      querySelectorAll: ((selector: string) =>
        selector.includes(SNAPSHOT_CLASS) ? [element("narrow"), element("wide"), element("style")] : []) as never,
    });
    expect(removed).toEqual(["narrow", "wide", "style"]);
  });
});

describe("a portal page's frame in its HTML", () => {
  const shell = {
    html: '<div class="portal-shell"><header class="bar">Menu</header><h2 class="title">Dashboard</h2></div>',
    styles: '<style data-css-hash="c">.bar{height:64px}.title{font-size:30px}.unused{color:red}</style>',
    shellStyle: "@media (min-width: 992px) { .bar { display: none } }",
  };
  const preloads = {
    files: ["/assets/portal-app.js"],
    portal: "0",
    frame: "",
    routes: [["/dashboard", 1, ""] as [string, 0 | 1, string]],
  };
  const page = withPortalShell(indexHtml, shell, "/assets/antd-all.css", preloads);

  it("puts the frame before the app's root, inert and hidden from assistive technology, and keeps the loading notice for whoever does not see it", () => {
    expect(page).toContain(
      `<div class="${SNAPSHOT_CLASS}" inert aria-hidden="true">${shell.html}</div><div id="root"><div class="app-loading" role="status">`,
    );
  });

  it("shows the frame only to someone signed in, in the light mode, and hides the app's root under it only then", () => {
    const head = page.slice(0, page.indexOf("</head>"));
    expect(head).toContain(PORTAL_SHELL_SNAPSHOT_STYLE);
    expect(PORTAL_SHELL_SNAPSHOT_STYLE).toContain(
      `html:not(.signed-in) .${SNAPSHOT_CLASS}, html.dark .${SNAPSHOT_CLASS} { display: none }`,
    );
    expect(PORTAL_SHELL_SNAPSHOT_STYLE).toContain(`html.signed-in:not(.dark) .${SNAPSHOT_CLASS} ~ #root {`);
  });

  it("carries the CSS the frame uses and its rules by width, and starts the app with the full antd sheet and the routes' preloads", () => {
    const head = page.slice(0, page.indexOf("</head>"));
    expect(head).toContain(".bar{height:64px}.title{font-size:30px}");
    expect(head).not.toContain(".unused");
    expect(head).toContain(shell.shellStyle);
    expect(page).toContain('<script type="application/json" id="route-preloads">');
    expect(page).toContain('data-stylesheet="/assets/antd-all.css"');
    expect(page).not.toContain('<script type="module"');
  });

  it("is drawn for portal pages in the portal's frame with a fixed path only", () => {
    const route: RoutePageModule = {
      path: "/dashboard",
      layout: "portal",
      publicSite: false,
      label: "Dashboard",
      module: null,
    };
    expect(drawsPortalShell(route)).toBe(true);
    expect(drawsPortalShell({ ...route, path: "/admin/users/:userId" })).toBe(false);
    expect(drawsPortalShell({ ...route, layout: "none" })).toBe(false);
    expect(drawsPortalShell({ ...route, publicSite: true, layout: "landing" })).toBe(false);
  });

  it("is drawn with the title of the page at the top for a tab or drawer on a route below it", () => {
    const route = (path: string, label: string): RoutePageModule => ({
      path,
      layout: "portal",
      publicSite: false,
      label,
      module: null,
    });
    const routes = [
      route("/admin/users", "Users"),
      route("/admin/firmware-support/matrix", "Support matrix"),
      route("/admin/firmware-support", "Firmware support"),
      route("/admin/firmware-support/vehicles/create", "Supported vehicles"),
    ];
    expect(portalShellTitle(routes[0], routes)).toBe("Users");
    expect(portalShellTitle(routes[1], routes)).toBe("Firmware support");
    expect(portalShellTitle(routes[3], routes)).toBe("Firmware support");
    expect(portalShellTitle(route("/admin/firmware-supporters", "Supporters"), routes)).toBe("Supporters");
  });
});
