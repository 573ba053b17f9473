import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderAntdStylesheet, STYLESHEET_COMPONENTS } from "../../../../src/prerender/antd-stylesheet";

/** Every value (not type) the app's sources import from "antd", multi-line imports included. */
function antdImports(dir: string): Set<string> {
  const names = new Set<string>();
  for (const entry of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    if (!/\.tsx?$/.test(entry)) continue;
    const source = readFileSync(path.join(dir, entry), "utf8");
    for (const match of source.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+"antd"/g)) {
      if (match[1]) continue;
      for (const item of match[2].split(",")) {
        const name = item.trim().replace(/\s+as\s+\w+$/, "");
        if (/^[A-Z]/.test(name) && !name.startsWith("type ")) names.add(name);
      }
    }
  }
  return names;
}

describe("antd's build-time stylesheet", () => {
  it("holds every antd component the app imports, so none of them is styled at run time on a first visit", () => {
    // Not components with styles of their own: the provider, the breakpoint hook's namespace, and types.
    const notStyled = new Set(["ConfigProvider", "Grid", "MappingAlgorithm", "ThemeConfig"]);
    const missing = [...antdImports(path.resolve("src"))].filter(
      (name) => !notStyled.has(name) && !(STYLESHEET_COMPONENTS as readonly string[]).includes(name),
    );
    expect(missing, "add them to STYLESHEET_COMPONENTS in src/prerender/antd-stylesheet.tsx").toEqual([]);
  });

  it("writes every component under the theme the app renders with, the overlays' too, so the browser finds each one's styles instead of writing them again", async () => {
    const css = await renderAntdStylesheet();
    // The engine's index of what the sheet holds: `token|path…:hash` entries (cssinjs' cache path map).
    const index = /data-ant-cssinjs-cache-path\{content:"([^"]*)"/.exec(css)?.[1].split(";") ?? [];
    const appToken = index.find((entry) => entry.includes("|App-App|"))?.split("|")[0];
    expect(appToken, "antd's App is in the sheet").toBeDefined();
    const foreign = index.filter((entry) => !entry.startsWith(`${appToken}|`) && !entry.includes("|ant-design-icons|"));
    expect(foreign, "styles under a theme the app never renders with").toEqual([]);
    // Each renders as an in-place panel under a theme of its own, and was missing under the app's.
    for (const name of ["Select", "Dropdown", "DatePicker", "Modal", "InputNumber"]) {
      expect(
        index.some((entry) => entry.startsWith(`${appToken}|${name}-${name}|`)),
        `${name} under the app's theme`,
      ).toBe(true);
    }
  }, 60_000);

  it("holds Button's rules for a compact group when a page has both, which antd writes only for a Button inside Space.Compact", async () => {
    // The engine's index names it `Button-compact`; finding it there, the browser does not write it again.
    const compactInIndex = (css: string) => /data-ant-cssinjs-cache-path\{content:"[^"]*\|Button-compact\|/.test(css);
    const withBoth = await renderAntdStylesheet(["Space", "Button"]);
    expect(compactInIndex(withBoth)).toBe(true);
    expect(withBoth).toContain(".ant-btn-compact-item:not(.ant-btn-compact-last-item)");
    // Without a Space on the page there is no compact group to style.
    expect(compactInIndex(await renderAntdStylesheet(["Button"]))).toBe(false);
  }, 60_000);
});
