/**
 * antd's styles as a stylesheet made at build time (scripts/lib/prerender.ts writes it to
 * dist/assets/antd-<hash>.css), so the browser does not compute them on every load: antd's style
 * engine writes the CSS of each component the first time it renders, which on a phone was about a
 * quarter of the app's start-up work. The sheet ends with the engine's own index of what it holds
 * (`.data-ant-cssinjs-cache-path`); finding it, the engine in the browser skips those components
 * (antd's "whole export" mode of server rendering). It is made for the theme the app starts with
 * (light, motion on); the dark theme and reduced motion are written at run time as before.
 *
 * Every antd component the app uses (ours and Refine's) is rendered once, with its static parts
 * (Input.Search, Layout.Sider…), overlays as their in-place panels; the parts they render bring their
 * own styles (a table its pagination and checkboxes). One that cannot render without a browser or
 * without props is left to the run time, as is anything else missing from the sheet: the engine
 * writes it when it first renders. tests/unit/src/prerender/antd-stylesheet.test.ts holds the list against
 * the app's imports.
 */
import { createCache, extractStyle, StyleProvider } from "@ant-design/cssinjs";
import * as antd from "antd";
import { type ComponentType, createElement, isValidElement, type ReactNode, Suspense } from "react";
import { prerenderToNodeStream } from "react-dom/static";
import { antdTheme } from "../components/theme/antd-theme";

/** The in-place panel antd gives each overlay (Modal, Tooltip, Select…), for demos and for exports like this one. */
const PANEL = "_InternalPanelDoNotUseOrYouWillBeFired";
/** The antd components the app's code imports (src/, and Refine's antd layer), by their export name. */
export const STYLESHEET_COMPONENTS = [
  "Alert",
  "Anchor",
  "App",
  "Avatar",
  "Badge",
  "Breadcrumb",
  "Button",
  "Card",
  "Checkbox",
  "Col",
  "Collapse",
  "DatePicker",
  "Descriptions",
  "Divider",
  "Drawer",
  "Dropdown",
  "Empty",
  "Flex",
  "Form",
  "Image",
  "Input",
  "InputNumber",
  "Layout",
  "List",
  "Menu",
  "Modal",
  "Pagination",
  "Popconfirm",
  "Progress",
  "QRCode",
  "Radio",
  "Result",
  "Row",
  "Segmented",
  "Select",
  "Skeleton",
  "Space",
  "Spin",
  "Statistic",
  "Steps",
  "Switch",
  "Table",
  "Tabs",
  "Tag",
  "Timeline",
  "Tooltip",
  "Tree",
  "Typography",
  "Upload",
] as const;
/** Props a component needs to render the parts that carry its styles. */
const PROPS: Record<string, Record<string, unknown>> = {
  Table: {
    columns: [{ title: "A", dataIndex: "a", sorter: true, filters: [{ text: "x", value: "x" }] }],
    dataSource: [{ key: 1, a: 1 }],
    rowSelection: {},
    pagination: { total: 50 },
  },
  Menu: {
    items: [
      { key: "a", label: "A", children: [{ key: "b", label: "B" }] },
      { type: "group", key: "g", label: "G", children: [{ key: "c", label: "C" }] },
    ],
  },
  Dropdown: { menu: { items: [{ key: "a", label: "A" }] } },
  Tabs: { items: [{ key: "a", label: "A", children: "a" }] },
  Collapse: { items: [{ key: "a", label: "A", children: "a" }] },
  Steps: { items: [{ title: "A" }, { title: "B" }] },
  Tree: { treeData: [{ key: "a", title: "A", children: [{ key: "b", title: "B" }] }] },
  QRCode: { value: "https://example.com" },
  Descriptions: { items: [{ key: "a", label: "A", children: "a" }] },
  Timeline: { items: [{ children: "a" }] },
  Breadcrumb: { items: [{ title: "A" }, { title: "B" }] },
  Result: { status: "404", title: "A" },
  Progress: { percent: 50 },
  Transfer: { dataSource: [{ key: "a", title: "A" }] },
  Upload: { fileList: [{ uid: "1", name: "a", status: "done" }] },
  // A preset colour writes every preset colour's rules (the dashboard's tags were written at run time).
  Tag: { color: "blue" },
};

const isComponent = (value: unknown): value is ComponentType<Record<string, unknown>> =>
  typeof value === "function" ||
  (typeof value === "object" && value !== null && "$$typeof" in value && !isValidElement(value));

function everyComponent(only: readonly string[]): ReactNode[] {
  const parts: ReactNode[] = [];
  const add = (key: string, component: ComponentType<Record<string, unknown>>, props: Record<string, unknown> = {}) =>
    // Each in its own boundary: one that throws leaves only itself to the run time.
    parts.push(
      <Suspense key={key} fallback={null}>
        {createElement(component, props, key.includes(".") ? undefined : "a")}
      </Suspense>,
    );
  for (const name of STYLESHEET_COMPONENTS) {
    if (!only.includes(name)) continue;
    const value: unknown = antd[name];
    if (!isComponent(value)) continue;
    const panel = (value as unknown as Record<string, unknown>)[PANEL];
    add(name, isComponent(panel) ? panel : value, PROPS[name]);
    // Some panels (Select, Dropdown, DatePicker, Modal, InputNumber) wrap themselves in a theme of
    // their own, so their styles are written under another token than the app renders with and are
    // never found at run time (the data log's unit selects wrote 50 kB of Select's CSS as it opened):
    // the component itself is rendered too, closed, which writes them under the app's.
    if (isComponent(panel)) add(`${name}:closed`, value, PROPS[name]);
    for (const [part, partValue] of Object.entries(value))
      if (/^[A-Z]/.test(part) && isComponent(partValue)) add(`${name}.${part}`, partValue);
  }
  // A Button in a Space.Compact writes rules antd keeps apart from Button's own (a sub-style of its
  // own, rendered only inside a compact group): the data log's dyno buttons wrote them at run time,
  // in the commit that shows the page.
  if (only.includes("Space") && only.includes("Button")) {
    parts.push(
      <Suspense key="Space.Compact>Button" fallback={null}>
        <antd.Space.Compact>
          <antd.Button>a</antd.Button>
          <antd.Button>b</antd.Button>
        </antd.Space.Compact>
      </Suspense>,
    );
  }
  return parts;
}

/** The cache key's token (`style%<token>%<path…>`): which theme a style was written for. */
const tokenOf = (key: string) => key.split("%")[1];

/**
 * Leaves out of `cache` the styles written under another theme than App's (the panels' own, above):
 * the engine in the browser looks styles up by the token it renders with, so those would only be
 * parsed, never used. The icons' style has a token of its own and stays.
 */
function keepAppThemeOnly(cache: ReturnType<typeof createCache>): void {
  const keys = [...cache.cache.keys()];
  const appKey = keys.find((key) => key.startsWith("style%") && key.includes("%App-App%"));
  if (!appKey) throw new Error("antd's App wrote no style: the sheet's theme cannot be told");
  const appToken = tokenOf(appKey);
  for (const key of keys)
    if (key.startsWith("style%") && tokenOf(key) !== appToken && !key.includes("%ant-design-icons%"))
      cache.cache.delete(key);
}

/**
 * The stylesheet's text, of every component or of `only` those (a portal page's: what its first load
 * imports, scripts/lib/prerender.ts), with App's always, which the app draws around every page; a
 * component that could not be rendered, or is not in the sheet, is left to the run time.
 */
export async function renderAntdStylesheet(only: readonly string[] = STYLESHEET_COMPONENTS): Promise<string> {
  const cache = createCache();
  const { prelude } = await prerenderToNodeStream(
    <StyleProvider cache={cache}>
      <antd.ConfigProvider theme={antdTheme("light", { reducedMotion: false })}>
        <antd.App>{everyComponent(only)}</antd.App>
      </antd.ConfigProvider>
    </StyleProvider>,
    { onError: () => undefined, progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  for await (const _chunk of prelude);
  keepAppThemeOnly(cache);
  return extractStyle(cache, { plain: true });
}
