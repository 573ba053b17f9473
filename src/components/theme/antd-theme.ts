/**
 * Theme: the "monza" primary and "ebony-clay" neutral palettes and the antd theme built from
 * them.
 *
 * Palette generation. Each palette has the steps 50, 100, 200 … 900, 950 and names the step its
 * base colour sits at (its anchor). A step s lighter than the anchor a is the base mixed with
 * white by (a − s) / a; a darker step is the base mixed with black by (s − a) / (1000 − a).
 * So white would sit at step 0 and black at step 1000, and every step is a straight sRGB mix
 * between its neighbours; channels are rounded to the nearest integer.
 *
 * - monza (#C7031E) is anchored at 500: the light-mode primary (the 500 shade) is exactly the
 *   brand red, and the dark-mode primary (the 400 shade) is it mixed with 20 % white.
 * - ebony-clay (#26283B) is anchored at 900: it is a near-black, used as the dark-mode
 *   background and the light-mode text colour, which is where Tailwind-style palettes use 900.
 *
 * `antdTheme(mode)` returns a ThemeConfig for antd's ConfigProvider: antd's default or dark
 * algorithm for everything, followed by one that pins antd's primary colour roles to monza
 * shades (PRIMARY_ROLES). antd's dark algorithm would otherwise darken the seed colour, and the
 * primary users see in dark mode would not be the 400 shade. `antdTheme(mode, { reducedMotion })`
 * turns antd's motion off. The same object is returned for the same arguments, so passing it to
 * ConfigProvider does not re-render the tree.
 */
import { type MappingAlgorithm, type ThemeConfig, theme } from "antd";

export const PALETTE_STEPS = [50, 100, 200, 300, 400, 500, 600, 700, 800, 900, 950] as const;
export type PaletteStep = (typeof PALETTE_STEPS)[number];
export type Palette = Readonly<Record<PaletteStep, string>>;

export const MONZA_BASE = "#C7031E";
export const EBONY_CLAY_BASE = "#26283B";
export const MONZA_ANCHOR: PaletteStep = 500;
export const EBONY_CLAY_ANCHOR: PaletteStep = 900;

/** The primary colour is this shade of monza in each mode. */
export const PRIMARY_SHADE = { light: 500, dark: 400 } as const satisfies Record<string, PaletteStep>;

type Rgb = readonly [number, number, number];

function parseHex(hex: string): Rgb {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) throw new TypeError(`Expected a colour as #rrggbb, got "${hex}".`);
  return [parseInt(match[1], 16), parseInt(match[2], 16), parseInt(match[3], 16)];
}

function toHex(rgb: Rgb): string {
  return `#${rgb.map((channel) => Math.round(channel).toString(16).padStart(2, "0")).join("")}`.toUpperCase();
}

/** `base` moved towards `target` by `amount` (0 keeps base, 1 gives target), in sRGB. */
export function mix(base: string, target: string, amount: number): string {
  const from = parseHex(base);
  const to = parseHex(target);
  const lerp = (index: 0 | 1 | 2) => from[index] + (to[index] - from[index]) * amount;
  return toHex([lerp(0), lerp(1), lerp(2)]);
}

export function generatePalette(base: string, anchor: PaletteStep): Palette {
  const entries = PALETTE_STEPS.map((step) => {
    if (step < anchor) return [step, mix(base, "#FFFFFF", (anchor - step) / anchor)];
    if (step > anchor) return [step, mix(base, "#000000", (step - anchor) / (1000 - anchor))];
    return [step, toHex(parseHex(base))];
  });
  return Object.freeze(Object.fromEntries(entries)) as Palette;
}

export const monza = generatePalette(MONZA_BASE, MONZA_ANCHOR);
export const ebonyClay = generatePalette(EBONY_CLAY_BASE, EBONY_CLAY_ANCHOR);

export function primaryColour(mode: "light" | "dark"): string {
  return monza[PRIMARY_SHADE[mode]];
}

type PrimaryRole =
  | "colorPrimaryBg"
  | "colorPrimaryBgHover"
  | "colorPrimaryBorder"
  | "colorPrimaryBorderHover"
  | "colorPrimaryHover"
  | "colorPrimary"
  | "colorPrimaryActive"
  | "colorPrimaryTextHover"
  | "colorPrimaryText"
  | "colorPrimaryTextActive";

/**
 * The monza shade behind each of antd's primary roles. Light mode: pale backgrounds, the 500
 * shade as the colour, darker when pressed. Dark mode mirrors it: deep backgrounds, the 400
 * shade as the colour, lighter on hover.
 */
export const PRIMARY_ROLES: Record<"light" | "dark", Record<PrimaryRole, PaletteStep>> = {
  light: {
    colorPrimaryBg: 50,
    colorPrimaryBgHover: 100,
    colorPrimaryBorder: 200,
    colorPrimaryBorderHover: 300,
    colorPrimaryHover: 400,
    colorPrimary: 500,
    colorPrimaryActive: 600,
    colorPrimaryTextHover: 400,
    colorPrimaryText: 500,
    colorPrimaryTextActive: 600,
  },
  dark: {
    colorPrimaryBg: 950,
    colorPrimaryBgHover: 900,
    colorPrimaryBorder: 800,
    colorPrimaryBorderHover: 700,
    colorPrimaryHover: 300,
    colorPrimary: 400,
    colorPrimaryActive: 500,
    colorPrimaryTextHover: 300,
    colorPrimaryText: 400,
    colorPrimaryTextActive: 500,
  },
};

function pinPrimary(mode: "light" | "dark"): MappingAlgorithm {
  const pinned = Object.fromEntries(
    Object.entries(PRIMARY_ROLES[mode]).map(([role, step]) => [role, monza[step]]),
  ) as Record<PrimaryRole, string>;
  return (seed, map) => ({ ...(map ?? theme.defaultAlgorithm(seed)), ...pinned });
}

const themes: Record<"light" | "dark", ThemeConfig> = {
  light: {
    algorithm: [theme.defaultAlgorithm, pinPrimary("light")],
    token: {
      colorPrimary: primaryColour("light"),
      colorLink: primaryColour("light"),
      colorTextBase: ebonyClay[900],
      colorBgBase: "#FFFFFF",
      colorBgLayout: ebonyClay[50],
      // antd derives these as the base colour at 65 % and 45 % opacity, below WCAG AA (4.5:1) on the
      // layout background; solid shades keep secondary text, hints and form extras readable (6.3:1).
      colorTextSecondary: ebonyClay[700],
      colorTextTertiary: ebonyClay[700],
      colorTextDescription: ebonyClay[700],
      // antd's error red (#ff4d4f) is 3.3:1 on white, too faint for a field's error message; red 7 is 5.9:1.
      colorError: "#CF1322",
      // Tags write in shade 7 of their colour on shade 1: green, gold and orange are 3.4:1 or less there; shades 8 and 9 are above 4.5:1.
      green7: "#237804",
      gold7: "#874D00",
      orange7: "#AD4E00",
    },
    components: {
      // A table's "nothing here" text is drawn in the disabled colour (2.2:1): it is information, not a disabled control.
      Table: { colorTextDisabled: ebonyClay[700] },
    },
  },
  dark: {
    algorithm: [theme.darkAlgorithm, pinPrimary("dark")],
    token: {
      colorPrimary: primaryColour("dark"),
      colorLink: primaryColour("dark"),
      colorTextBase: ebonyClay[50],
      colorBgBase: ebonyClay[900],
      colorBgLayout: ebonyClay[950],
      // The same for dark mode: at least 7:1 on the container background.
      colorTextSecondary: ebonyClay[200],
      colorTextTertiary: ebonyClay[300],
      colorTextDescription: ebonyClay[300],
    },
    components: {
      // antd marks the selected menu item with the 400 shade on the 950 one, about 4:1 and hard to find;
      // white on the 800 shade is above 15:1.
      Menu: { itemSelectedBg: monza[800], itemSelectedColor: "#FFFFFF", subMenuItemSelectedColor: "#FFFFFF" },
      Table: { colorTextDisabled: ebonyClay[300] },
    },
  },
};

// Without motion antd's dropdowns, modals and drawers appear and leave at once (WCAG 2.3.3).
const stillThemes: Record<"light" | "dark", ThemeConfig> = {
  light: { ...themes.light, token: { ...themes.light.token, motion: false } },
  dark: { ...themes.dark, token: { ...themes.dark.token, motion: false } },
};

/** The theme of a colour mode; `reducedMotion` when the visitor's system asks for less motion. */
export function antdTheme(mode: "light" | "dark", { reducedMotion = false } = {}): ThemeConfig {
  return (reducedMotion ? stillThemes : themes)[mode];
}
