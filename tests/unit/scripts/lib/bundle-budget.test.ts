import { rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSpa } from "../../../../scripts/lib/build";
import {
  BUDGETS,
  type BundleReport,
  bundleReport,
  kB,
  largestModules,
  packagesOf,
} from "../../../../scripts/lib/bundle-report";

/**
 * The production build stays within its size budgets (scripts/lib/bundle-report.ts). Builds into its
 * own folder, or reads BUNDLE_DIST when a build is at hand. `npx tsx bench/first-load.ts` prints the figures.
 */
const given = process.env.BUNDLE_DIST;
const distDir = given ? path.resolve(given) : path.resolve(`.test-data/bundle-budget-${process.pid}/dist`);
let report: BundleReport;

beforeAll(() => {
  if (!given) buildSpa(distDir);
  report = bundleReport(distDir);
}, 240_000);

afterAll(() => {
  if (!given) rmSync(path.dirname(distDir), { recursive: true, force: true });
});

/** The modules of the landing's first load whose id matches, each named with its chunk. */
const landingModulesMatching = (pattern: RegExp): string[] =>
  report.initial.flatMap((fileName) =>
    (report.chunks.get(fileName)?.modules ?? [])
      .filter((module) => pattern.test(module.id))
      .map((module) => `${fileName}: ${module.id}`),
  );

/** The modules a page's chunk and everything it imports statically hold whose id matches, each named with its chunk. */
function pageModulesMatching(pageModule: string, pattern: RegExp): string[] {
  const page = [...report.chunks.values()].find((chunk) => chunk.facadeModuleId?.endsWith(pageModule));
  if (!page) throw new Error(`no chunk is the page ${pageModule}`);
  const closure = new Set<string>();
  const visit = (fileName: string) => {
    if (closure.has(fileName)) return;
    closure.add(fileName);
    for (const imported of report.chunks.get(fileName)?.imports ?? []) visit(imported);
  };
  visit(page.fileName);
  return [...closure].flatMap((fileName) =>
    (report.chunks.get(fileName)?.modules ?? [])
      .filter((module) => pattern.test(module.id))
      .map((module) => `${fileName}: ${module.id}`),
  );
}

describe("bundle budgets", () => {
  it(`the landing page's initial JavaScript stays within ${kB(BUDGETS.landingInitialGzip)} gzipped`, () => {
    const total = report.initialTotals.gzip;
    const holds = packagesOf(report.initial.map((fileName) => report.chunks.get(fileName)))
      .map((entry) => `${entry.name} ${kB(entry.bytes)}`)
      .join(", ");
    const chunks = report.initial
      .map((fileName) => report.sizes.get(fileName)!)
      .sort((a, b) => b.gzip - a.gzip)
      .slice(0, 6)
      .map((size) => `${size.fileName} ${kB(size.gzip)} (${largestModules(report.chunks.get(size.fileName), 4)})`)
      .join("\n  ");
    expect(
      total,
      `the landing loads ${kB(total)} gzipped in ${report.initial.length} chunks, over its ${kB(BUDGETS.landingInitialGzip)} budget.\n` +
        `It holds (rendered bytes): ${holds}\nLargest chunks:\n  ${chunks}`,
    ).toBeLessThanOrEqual(BUDGETS.landingInitialGzip);
  });

  it(`every lazy chunk but Monaco stays within ${kB(BUDGETS.lazyChunkGzip)} gzipped`, () => {
    const over = report.lazy
      .filter((fileName) => !BUDGETS.lazyExempt.test(fileName))
      .map((fileName) => report.sizes.get(fileName)!)
      .filter((size) => size.gzip > BUDGETS.lazyChunkGzip)
      .map(
        (size) =>
          `${size.fileName} ${kB(size.gzip)} gzipped pulls in ${largestModules(report.chunks.get(size.fileName))}`,
      );
    expect(over, `lazy chunks over ${kB(BUDGETS.lazyChunkGzip)}`).toEqual([]);
  });

  it("the landing page loads none of the portal's code: Refine, its query cache, the schema library, the identity SDK", () => {
    const found = landingModulesMatching(/node_modules\/(@refinedev|@tanstack|zod|firebase|@firebase)\//);
    expect(found.slice(0, 10), `${found.length} modules of the portal in the landing's first load`).toEqual([]);
  });

  it("no chunk holds the markdown renderer or the CSV parser Refine imports for a field and hooks the app never uses", () => {
    // vite.config.ts marks their packages free of side effects; without that they rode in the portal's frame.
    const unused = /node_modules\/(react-markdown|remark-gfm|micromark|mdast-util-from-markdown|unified|papaparse)\//;
    const found = [...report.chunks.values()].flatMap((chunk) =>
      chunk.modules.filter((module) => unused.test(module.id)).map((module) => `${chunk.fileName}: ${module.id}`),
    );
    expect(found.slice(0, 10), `${found.length} modules of packages the app does not use`).toEqual([]);
  });

  it("the landing page, which shows no form, loads none of antd's form machinery (rc-field-form's fields and store, its validator)", () => {
    // vite.config.ts marks antd's rc-* packages free of side effects; without that Drawer's import of
    // the form context brought the whole of rc-field-form through its index module. The context
    // itself (FormContext.js, a few hundred bytes) is what antd's providers use, and stays.
    const found = landingModulesMatching(
      /node_modules\/(rc-field-form\/es\/(?!FormContext\.js)|@rc-component\/async-validator\/)/,
    );
    expect(found.slice(0, 10), `${found.length} modules of antd's forms in the landing's first load`).toEqual([]);
  });

  it("the landing's first load carries no code for what it shows only on demand: error pages, dialogs, messages, the menu drawer, the portal menu's icons", () => {
    // Each loads when first shown (src/components/deferred-error-page.tsx, dialog-host.tsx,
    // empty-state.tsx, app-frame.tsx, menu-icon.tsx, layouts/landing-layout.tsx); the landing's
    // headings, panels, steps and placeholders are antd's drawings without the machinery they do
    // not use (src/components/text.tsx, panel.tsx, step-list.tsx, paragraph-skeleton.tsx). Their
    // style rules and the locale ConfigProvider hands to a modal stay: they are what draws the page.
    const onDemand = new RegExp(
      [
        "src/components/(error-page|dialog-frames|shortcut-list|menu-icons)\\.tsx$",
        "node_modules/antd/es/(result|modal|message|notification|drawer|empty|descriptions|collapse|tabs|avatar|progress)/(?!style/|locale\\.js$)",
        "node_modules/antd/es/typography/(Base|Editable|Title|Paragraph|Text|Link)",
        "node_modules/antd/es/(card|steps|skeleton)/(?!style/)",
        "node_modules/(rc-textarea|rc-tabs|rc-steps|rc-dialog|rc-drawer|rc-notification)/",
        "node_modules/@ant-design/icons-svg/es/asn/(Dashboard|Team|Crown|Database)Outlined\\.js$",
      ].join("|"),
    );
    const found = landingModulesMatching(onDemand);
    expect(found.slice(0, 10), `${found.length} modules shown only on demand in the landing's first load`).toEqual([]);
  });

  it("Monaco is not in the landing's first load", () => {
    expect(report.initial.filter((fileName) => BUDGETS.lazyExempt.test(fileName))).toEqual([]);
  });

  it("a portal page opens without the schema library: the portal's layout, its account stream, the dashboard and a data log's page hold no zod", () => {
    // zod builds every schema of a contract module when it is imported (the dashboard's tuning
    // requests brought tune files and definitions, before the library's own evaluation). What these need as they load is in zod-free contracts: ./listen-streams,
    // ./tuning-request-states, ./roles, ./list-query, ./api-paths; forms and dialogs bring zod when they open.
    const pages = [
      "src/components/layouts/portal-layout.tsx",
      "src/components/account-stream-listener.tsx",
      "src/pages/dashboard/index.tsx",
      "src/resources/data-logs/show.tsx",
    ];
    const found = pages.flatMap((page) =>
      pageModulesMatching(page, /node_modules\/zod\//).map((module) => `${page} → ${module}`),
    );
    expect(found.slice(0, 10), `${found.length} modules of zod in the first load of portal pages`).toEqual([]);
  });

  it("the tune viewer loads its 3-D surface (canvas and geometry) only when a map's surface is opened", () => {
    const surface = /src\/pages\/tune-viewer\/surface-(view|geometry)\.tsx?$/;
    const found = pageModulesMatching("src/pages/tune-viewer/index.tsx", surface);
    expect(found.slice(0, 10), `${found.length} modules of the surface in the viewer's first load`).toEqual([]);
    const lazy = report.lazy.filter((fileName) => report.chunks.get(fileName)?.modules.some((m) => surface.test(m.id)));
    expect(lazy, "lazy chunks holding the surface").toHaveLength(1);
  });

  it("a data log's page loads the virtual dyno's chart and form, the share dialog, the pull list and the marker panel only when they open", () => {
    // recharts (with d3 and Redux Toolkit) alone was ~87 KiB Brotli on every log page, for a drawer few open.
    // The dyno's form is rc-field-form's Field; its FieldContext comes with any antd input (the filter box).
    const found = pageModulesMatching(
      "src/resources/data-logs/show.tsx",
      /node_modules\/(recharts|d3-|@reduxjs)|rc-field-form\/es\/Field\.js|antd\/es\/table\/|src\/resources\/data-logs\/(share-dialog|analysis\/(dyno-panel|pull-list|marker-panel))/,
    );
    expect(found.slice(0, 10), `${found.length} such modules in the log page's first load`).toEqual([]);
  });
});
