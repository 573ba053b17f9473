import { theme } from "antd";
import { describe, expect, it } from "vitest";

import {
  antdTheme,
  ebonyClay,
  generatePalette,
  mix,
  monza,
  PALETTE_STEPS,
  PRIMARY_ROLES,
  primaryColour,
} from "../../../../../src/components/theme/antd-theme";

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((start) => parseInt(hex.slice(start, start + 2), 16));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

describe("palettes", () => {
  it("have the steps 50, 100, 200 … 900, 950", () => {
    expect(PALETTE_STEPS).toEqual([50, 100, 200, 300, 400, 500, 600, 700, 800, 900, 950]);
    expect(Object.keys(monza).map(Number)).toEqual([...PALETTE_STEPS]);
    expect(Object.keys(ebonyClay).map(Number)).toEqual([...PALETTE_STEPS]);
  });

  it("put monza's base #C7031E at 500 and ebony-clay's base #26283B at 900", () => {
    expect(monza[500]).toBe("#C7031E");
    expect(ebonyClay[900]).toBe("#26283B");
  });

  it("get darker from 50 to 950", () => {
    for (const palette of [monza, ebonyClay]) {
      const values = PALETTE_STEPS.map((step) => luminance(palette[step]));
      expect([...values].sort((a, b) => b - a)).toEqual(values);
    }
  });

  it("mix lighter steps with white by (anchor − step) / anchor", () => {
    expect(monza[400]).toBe(mix("#C7031E", "#FFFFFF", 0.2));
    expect(monza[50]).toBe(mix("#C7031E", "#FFFFFF", 0.9));
    expect(ebonyClay[50]).toBe(mix("#26283B", "#FFFFFF", 850 / 900));
  });

  it("mix darker steps with black by (step − anchor) / (1000 − anchor)", () => {
    expect(monza[600]).toBe(mix("#C7031E", "#000000", 0.2));
    expect(monza[950]).toBe(mix("#C7031E", "#000000", 0.9));
    expect(ebonyClay[950]).toBe(mix("#26283B", "#000000", 0.5));
  });

  it("mix in sRGB with rounded channels", () => {
    expect(mix("#C7031E", "#FFFFFF", 0.2)).toBe("#D2354B");
    expect(mix("#000000", "#FFFFFF", 0.5)).toBe("#808080");
    expect(mix("#123456", "#FFFFFF", 0)).toBe("#123456");
  });

  it("refuse a colour that is not #rrggbb", () => {
    expect(() => generatePalette("red", 500)).toThrow(TypeError);
  });
});

describe("primary colour", () => {
  it("uses the 500 shade in light mode and the 400 shade in dark mode", () => {
    expect(primaryColour("light")).toBe(monza[500]);
    expect(primaryColour("dark")).toBe(monza[400]);
  });
});

describe("antd theme", () => {
  it("uses the default algorithm and the light primary in light mode", () => {
    const config = antdTheme("light");
    expect(config.algorithm).toEqual([theme.defaultAlgorithm, expect.any(Function)]);
    expect(config.token).toMatchObject({ colorPrimary: monza[500], colorTextBase: ebonyClay[900] });
  });

  it("uses the dark algorithm, the dark primary and ebony-clay surfaces in dark mode", () => {
    const config = antdTheme("dark");
    expect(config.algorithm).toEqual([theme.darkAlgorithm, expect.any(Function)]);
    expect(config.token).toMatchObject({
      colorPrimary: monza[400],
      colorBgBase: ebonyClay[900],
      colorTextBase: ebonyClay[50],
    });
  });

  it("returns the same object each time, so ConfigProvider does not re-render", () => {
    expect(antdTheme("dark")).toBe(antdTheme("dark"));
    expect(antdTheme("light", { reducedMotion: true })).toBe(antdTheme("light", { reducedMotion: true }));
  });

  it("turns antd's motion off, and only that, when reduced motion is asked for", () => {
    const withoutMotion = (token: object) =>
      Object.fromEntries(Object.entries(token).filter(([name]) => !name.startsWith("motion")));
    for (const mode of ["light", "dark"] as const) {
      const moving = theme.getDesignToken(antdTheme(mode));
      const still = theme.getDesignToken(antdTheme(mode, { reducedMotion: true }));
      expect([moving.motion, moving.motionDurationMid], mode).toEqual([true, "0.2s"]);
      expect([still.motion, still.motionDurationFast, still.motionDurationMid, still.motionDurationSlow], mode).toEqual(
        [false, "0s", "0s", "0s"],
      );
      expect(withoutMotion(still), mode).toEqual(withoutMotion(moving));
    }
  });

  it("gives antd components the 500 shade in light mode and the 400 shade in dark mode", () => {
    expect(theme.getDesignToken(antdTheme("light")).colorPrimary).toBe(monza[500]);
    expect(theme.getDesignToken(antdTheme("dark")).colorPrimary).toBe(monza[400]);
  });

  it("maps every antd primary role to a monza shade", () => {
    for (const mode of ["light", "dark"] as const) {
      const token = theme.getDesignToken(antdTheme(mode));
      for (const [role, step] of Object.entries(PRIMARY_ROLES[mode])) {
        expect(token[role as keyof typeof token], `${mode} ${role}`).toBe(monza[step]);
      }
    }
  });

  it("derives dark surfaces from ebony-clay instead of antd's grey", () => {
    const dark = theme.getDesignToken(antdTheme("dark"));
    const antdGrey = theme.getDesignToken({ algorithm: theme.darkAlgorithm });
    expect(dark.colorBgLayout).toBe(ebonyClay[950]);
    expect(dark.colorBgContainer).not.toBe(antdGrey.colorBgContainer);
  });
});
