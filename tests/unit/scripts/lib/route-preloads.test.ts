// @vitest-environment jsdom
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  antdComponentsIn,
  type ChunkInfo,
  type RoutePageModule,
  routeLoads,
  routePreloads,
  routePreloadsElement,
  withEntryImportsInOrder,
  withStartAfterPaint,
} from "../../../../scripts/lib/prerender";

const chunk = (
  fileName: string,
  imports: string[],
  facadeModuleId: string | null = null,
  isEntry = false,
): ChunkInfo => ({ fileName, imports, facadeModuleId, isEntry });

// The entry shares react with everything; the portal's code and its frame share antd's forms; the dashboard needs the frame's table too.
const chunks = [
  chunk("assets/index.js", ["assets/react.js"], "index.html", true),
  chunk("assets/react.js", []),
  chunk("assets/portal-app.js", ["assets/react.js", "assets/form.js"], "src/portal-app.tsx"),
  {
    ...chunk("assets/form.js", ["assets/react.js"]),
    modules: [
      { id: "node_modules/antd/es/form/style/index.js" },
      { id: "node_modules/antd/es/input-number/style/token.js" },
      { id: "src/components/form.tsx" },
    ],
  },
  chunk("assets/portal-layout.js", ["assets/form.js", "assets/table.js"], "src/components/layouts/portal-layout.tsx"),
  chunk("assets/menu-icons.js", [], "src/components/menu-icons.tsx"),
  {
    ...chunk("assets/table.js", []),
    modules: [
      { id: "node_modules/antd/es/table/Table.js" },
      { id: "node_modules/antd/es/table/style/index.js" },
      { id: "node_modules/antd/es/pagination/style/index.js" },
      { id: "node_modules/antd/es/grid/style/index.js" },
    ],
  },
  chunk("assets/dashboard.js", ["assets/table.js", "assets/chart.js"], "src/pages/dashboard/index.tsx"),
  {
    ...chunk("assets/chart.js", []),
    modules: [
      { id: "node_modules/antd/es/date-picker/style/index.js" },
      { id: "node_modules/antd/es/modal/locale.js" },
      { id: "node_modules/recharts/es6/index.js" },
    ],
  },
  chunk("assets/log.js", ["assets/table.js", "assets/chart.js"], "src/resources/data-logs/show.tsx"),
  chunk("assets/home.js", ["assets/react.js"], "src/pages/landing/home.tsx"),
];

const routes: RoutePageModule[] = [
  { path: "/", layout: "landing", publicSite: true, module: "src/pages/landing/home.tsx", label: "Home" },
  {
    path: "/dashboard",
    layout: "portal",
    publicSite: false,
    module: "src/pages/dashboard/index.tsx",
    label: "Dashboard",
  },
  {
    path: "/tuning-tools/data-logs/:id",
    layout: "none",
    publicSite: false,
    module: "src/resources/data-logs/show.tsx",
    label: "Data logs",
  },
  { path: "/admin/app-info", layout: "portal", publicSite: false, module: null, label: "App info" },
];

const preloads = routePreloads(chunks, routes);
const files = (list: string) =>
  list
    .split(" ")
    .filter(Boolean)
    .map((index) => preloads.files[Number(index)]);

describe("the chunks a page load fetches beyond the entry's, by route", () => {
  it("lists for every portal page the portal's code and what it imports, leaving out what the entry loads", () => {
    expect(files(preloads.portal)).toEqual(["/assets/form.js", "/assets/portal-app.js"]);
  });

  it("lists for the pages in the portal's frame the frame and its menu's icons, leaving out what the portal's code loads", () => {
    expect(files(preloads.frame)).toEqual(["/assets/table.js", "/assets/portal-layout.js", "/assets/menu-icons.js"]);
  });

  it("lists a page's own chunks beyond those, and for a full-screen page the chunks it shares with the frame", () => {
    const [dashboard, log] = [preloads.routes[1], preloads.routes[2]];
    expect(dashboard.slice(0, 2)).toEqual(["/dashboard", 1]);
    expect(files(dashboard[2] ?? "")).toEqual(["/assets/chart.js", "/assets/dashboard.js"]);
    expect(log.slice(0, 2)).toEqual(["/tuning-tools/data-logs/:id", 0]);
    expect(files(log[2] ?? "")).toEqual(["/assets/table.js", "/assets/chart.js", "/assets/log.js"]);
  });

  it("keeps every route in the app's order, a public page with nothing more and a page without its own chunk with the common lists only", () => {
    expect(preloads.routes.map((route) => route[0])).toEqual(routes.map((route) => route.path));
    expect(preloads.routes[0]).toEqual(["/"]);
    expect(preloads.routes[3]).toEqual(["/admin/app-info", 1, ""]);
  });

  it("puts every chunk after the chunks it imports, as the browser evaluates them (the app runs them in that order, one a task)", () => {
    const byFile = new Map(chunks.map((each) => [`/${each.fileName}`, each]));
    const entryLoads = ["/assets/react.js", "/assets/index.js"];
    for (const route of preloads.routes.filter((each) => each.length > 1)) {
      const order = [
        ...entryLoads,
        ...files(preloads.portal),
        ...(route[1] ? files(preloads.frame) : []),
        ...files(route[2] ?? ""),
      ];
      order.forEach((file, at) => {
        for (const imported of byFile.get(file)?.imports ?? [])
          expect(order.indexOf(`/${imported}`), `${route[0]}: ${file} imports ${imported}`).toBeLessThan(at);
      });
    }
  });

  it("names each file once", () => {
    expect(new Set(preloads.files).size).toBe(preloads.files.length);
  });

  it("refuses a build in which the portal's code is missing, rather than preloading nothing without a word", () => {
    expect(() =>
      routePreloads(
        chunks.filter((each) => each.facadeModuleId !== "src/portal-app.tsx"),
        routes,
      ),
    ).toThrow(/src\/portal-app\.tsx/);
  });

  it("writes the lists as JSON that cannot close its element early", () => {
    const element = routePreloadsElement({ files: ["/a</script>.js"], portal: "0", frame: "", routes: [] });
    expect(element).not.toContain("</script>.js");
    expect(JSON.parse(element.slice(element.indexOf(">") + 1, element.lastIndexOf("</script>"))).files).toEqual([
      "/a</script>.js",
    ]);
  });
});

const indexHtml = `<!doctype html>
<html lang="en">
  <head>
    <script type="module" crossorigin src="/assets/index.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react.js">
  </head>
  <body>
    <div id="root"><div class="app-loading" role="status">Loading the portal…</div></div>
  </body>
</html>`;
const startScript = readFileSync(path.resolve("public/start-after-paint.js"), "utf8");

/**
 * The start script as the tests run it: jsdom cannot import a chunk, so its `import()` of the entry's
 * chunks goes to `window.__importChunk`, which records the address and answers at once.
 */
const IMPORT_CALL = "import(hrefs[0])";
const testedStartScript = startScript.replace(IMPORT_CALL, "window.__importChunk(hrefs[0])");
const evaluated: string[] = [];
(window as unknown as { __importChunk: (href: string) => Promise<void> }).__importChunk = async (href) =>
  void evaluated.push(href);

/** The module preloads public/start-after-paint.js asks for on `pathname`, in order, once it has started. */
async function preloadedOn(pathname: string, lists = preloads, stylesheet = "", html = indexHtml): Promise<string[]> {
  const page = withStartAfterPaint(html, stylesheet, lists);
  window.history.replaceState(null, "", pathname);
  document.head.innerHTML = "";
  document.body.innerHTML = page.slice(page.indexOf("<body>") + "<body>".length, page.indexOf("</body>"));
  // As the browser runs it: document.currentScript is its own tag.
  Object.defineProperty(document, "currentScript", {
    configurable: true,
    value: document.querySelector('script[src="/start-after-paint.js"]'),
  });
  evaluated.length = 0;
  new Function(testedStartScript)();
  await new Promise((resolve) => setTimeout(resolve, 300));
  return [...document.querySelectorAll('link[rel="modulepreload"], link[rel="stylesheet"]')].map(
    (link) => link.getAttribute("href") ?? "",
  );
}

describe("the antd components a portal page's first load imports, for its own stylesheet", () => {
  const names = ["App", "Col", "DatePicker", "Form", "InputNumber", "Layout", "Modal", "Pagination", "Row", "Table"];
  const loads = routeLoads(chunks, routes);

  it("counts the entry, the portal's code, the frame for a page in it and the page's own chunks, for portal pages only", () => {
    expect([...(loads.get("/dashboard") ?? [])].sort()).toEqual([
      "assets/chart.js",
      "assets/dashboard.js",
      "assets/form.js",
      "assets/index.js",
      "assets/menu-icons.js",
      "assets/portal-app.js",
      "assets/portal-layout.js",
      "assets/react.js",
      "assets/table.js",
    ]);
    expect(loads.get("/tuning-tools/data-logs/:id")?.has("assets/portal-layout.js")).toBe(false);
    expect(loads.has("/")).toBe(false);
  });

  it("names the components whose style modules are loaded, in the sheet's order: a folder's locale text is not its styles", () => {
    expect(antdComponentsIn(chunks, loads.get("/dashboard") ?? new Set(), names)).toEqual([
      "Col",
      "DatePicker",
      "Form",
      "InputNumber",
      "Pagination",
      "Row",
      "Table",
    ]);
    expect(antdComponentsIn(chunks, loads.get("/admin/app-info") ?? new Set(), names)).toEqual([
      "Col",
      "Form",
      "InputNumber",
      "Pagination",
      "Row",
      "Table",
    ]);
  });

  it("gives each route the index of its sheet, each sheet listed once", () => {
    const withSheets = routePreloads(
      chunks,
      routes,
      new Map([
        ["/dashboard", "/assets/antd-a.css"],
        ["/admin/app-info", "/assets/antd-b.css"],
        ["/tuning-tools/data-logs/:id", "/assets/antd-a.css"],
      ]),
    );
    expect(withSheets.sheets).toEqual(["/assets/antd-a.css", "/assets/antd-b.css"]);
    expect(withSheets.routes.map((route) => route[3])).toEqual([undefined, 0, 0, 1]);
  });
});

// An entry importing four chunks, which Vite linked with importers before what they import.
const entryGraph = [
  chunk("assets/index.js", ["assets/menu.js", "assets/react.js", "assets/runtime.js"], "index.html", true),
  chunk("assets/menu.js", ["assets/tooltip.js", "assets/runtime.js"]),
  chunk("assets/tooltip.js", ["assets/react.js"]),
  chunk("assets/react.js", ["assets/runtime.js"]),
  chunk("assets/runtime.js", []),
];
const entryWithFourImports = () =>
  withEntryImportsInOrder(
    indexHtml.replace(
      /\s*<link rel="modulepreload"[^>]*>/,
      ["menu", "tooltip", "react", "runtime"]
        .map((name) => `\n    <link rel="modulepreload" crossorigin href="/assets/${name}.js">`)
        .join(""),
    ),
    entryGraph,
  );

describe("the entry's imports on the start script's tag", () => {
  it("come each after the chunks it imports, whatever order Vite linked them in", () => {
    const html = withStartAfterPaint(entryWithFourImports(), "");
    expect(/data-preload="([^"]*)"/.exec(html)?.[1]).toBe(
      "/assets/runtime.js /assets/react.js /assets/tooltip.js /assets/menu.js",
    );
  });
});

describe("public/start-after-paint.js on each kind of page", () => {
  it("starts the entry once it and its imports are linked, and tells the app when the page's chunks are too", async () => {
    const inserted: string[] = [];
    const observer = new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes)
          if (node instanceof HTMLScriptElement && node.type === "module")
            inserted.push(`entry ${node.getAttribute("src")}`);
          else if (node instanceof HTMLLinkElement && node.rel === "modulepreload")
            inserted.push(node.getAttribute("href") ?? "");
    });
    observer.observe(document.head, { childList: true });
    let linkedAt = -1;
    window.addEventListener(
      "route-chunks-linked",
      () => (linkedAt = document.querySelectorAll('link[rel="modulepreload"]').length),
      { once: true },
    );
    delete (window as { __routeChunksLinked?: boolean }).__routeChunksLinked;
    const preloaded = await preloadedOn("/dashboard");
    observer.disconnect();
    // After its own chunk and the chunk it imports are linked, and that chunk evaluated, in a turn of its own.
    expect(startScript).toContain(IMPORT_CALL);
    expect(evaluated).toEqual(["/assets/react.js"]);
    expect(inserted.indexOf("entry /assets/index.js")).toBeGreaterThanOrEqual(2);
    expect(inserted.filter((each) => !each.startsWith("entry"))).toEqual(preloaded);
    expect(linkedAt).toBe(preloaded.length);
    expect((window as { __routeChunksLinked?: boolean }).__routeChunksLinked).toBe(true);
  });

  it("evaluates the entry's imports one per turn, each after what it imports, then starts the entry", async () => {
    const inserted: string[] = [];
    const observer = new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes)
          if (node instanceof HTMLScriptElement && node.type === "module")
            inserted.push(`entry after ${evaluated.length}`);
    });
    observer.observe(document.head, { childList: true });
    await preloadedOn("/", preloads, "", entryWithFourImports());
    observer.disconnect();
    expect(evaluated).toEqual(["/assets/runtime.js", "/assets/react.js", "/assets/tooltip.js", "/assets/menu.js"]);
    expect(inserted).toEqual(["entry after 4"]);
  });

  it("starts the entry when one of its imports fails, for the entry's script to report it", async () => {
    const importChunk = (window as unknown as { __importChunk: (href: string) => Promise<void> }).__importChunk;
    (window as unknown as { __importChunk: (href: string) => Promise<void> }).__importChunk = async (href) => {
      evaluated.push(href);
      if (href.endsWith("/react.js")) throw new TypeError("Failed to fetch dynamically imported module");
    };
    try {
      await preloadedOn("/", preloads, "", entryWithFourImports());
    } finally {
      (window as unknown as { __importChunk: (href: string) => Promise<void> }).__importChunk = importChunk;
    }
    expect(evaluated).toEqual(["/assets/runtime.js", "/assets/react.js"]);
    expect(document.querySelector('script[type="module"]')?.getAttribute("src")).toBe("/assets/index.js");
  });

  it("preloads on a portal page the entry's imports, then the portal's code, its frame and the page's own chunks", async () => {
    expect(await preloadedOn("/dashboard")).toEqual([
      "/assets/index.js",
      "/assets/react.js",
      "/assets/form.js",
      "/assets/portal-app.js",
      "/assets/table.js",
      "/assets/portal-layout.js",
      "/assets/menu-icons.js",
      "/assets/chart.js",
      "/assets/dashboard.js",
    ]);
  });

  it("matches a route's parameters, a trailing slash and any letter case, and leaves out the frame for a full-screen page", async () => {
    expect(await preloadedOn("/Tuning-Tools/data-logs/0b1c/")).toEqual([
      "/assets/index.js",
      "/assets/react.js",
      "/assets/form.js",
      "/assets/portal-app.js",
      "/assets/table.js",
      "/assets/chart.js",
      "/assets/log.js",
    ]);
  });

  it("preloads only the entry's imports on a public page and on a path no route knows", async () => {
    expect(await preloadedOn("/")).toEqual(["/assets/index.js", "/assets/react.js"]);
    expect(await preloadedOn("/dashboard/extra")).toEqual(["/assets/index.js", "/assets/react.js"]);
  });

  it("links every part of a sheet, in order, before anything else", async () => {
    const withSheets = routePreloads(
      chunks,
      routes,
      new Map([["/dashboard", "/assets/antd-1.css /assets/antd-2.css /assets/antd-3.css"]]),
    );
    expect((await preloadedOn("/dashboard", withSheets, "/assets/antd-all.css")).slice(0, 4)).toEqual([
      "/assets/antd-1.css",
      "/assets/antd-2.css",
      "/assets/antd-3.css",
      "/assets/index.js",
    ]);
    expect(
      (await preloadedOn("/docs/start", withSheets, "/assets/antd-all-1.css /assets/antd-all-2.css")).slice(0, 3),
    ).toEqual(["/assets/antd-all-1.css", "/assets/antd-all-2.css", "/assets/index.js"]);
  });

  it("links a portal page's own antd sheet first, and the sheet the page names on any other page", async () => {
    const withSheets = routePreloads(chunks, routes, new Map([["/dashboard", "/assets/antd-dashboard.css"]]));
    expect((await preloadedOn("/dashboard", withSheets, "/assets/antd-all.css"))[0]).toBe("/assets/antd-dashboard.css");
    expect((await preloadedOn("/admin/app-info", withSheets, "/assets/antd-all.css"))[0]).toBe("/assets/antd-all.css");
    expect((await preloadedOn("/docs/start", withSheets, "/assets/antd-all.css"))[0]).toBe("/assets/antd-all.css");
  });
});
