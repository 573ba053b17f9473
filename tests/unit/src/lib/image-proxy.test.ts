import { describe, expect, it } from "vitest";

import {
  BREAKPOINTS,
  densitySrcset,
  IMAGE_DENSITIES,
  imageUrl,
  responsiveSrcset,
  sizes,
} from "../../../../src/lib/image-proxy";

describe("imageUrl", () => {
  it("builds /_ipx/<modifiers>/<path> with webp as the default format", () => {
    expect(imageUrl("/images/car.jpg")).toBe("/_ipx/f_webp/images/car.jpg");
  });

  it("writes width, height, quality, format, fit and background in a fixed order", () => {
    expect(
      imageUrl("/images/car.jpg", {
        background: "#FFFFFF",
        fit: "contain",
        format: "png",
        quality: 80,
        height: 200,
        width: 320,
      }),
    ).toBe("/_ipx/w_320&h_200&q_80&f_png&fit_contain&b_ffffff/images/car.jpg");
  });

  it("accepts a background with or without '#', short or long", () => {
    expect(imageUrl("/a.png", { background: "fff" })).toBe("/_ipx/f_webp&b_fff/a.png");
  });

  it("percent-encodes each path segment", () => {
    expect(imageUrl("/images/my car #1.jpg", { width: 10 })).toBe("/_ipx/w_10&f_webp/images/my%20car%20%231.jpg");
  });

  it.each([
    [{ width: 0 }],
    [{ width: 10.5 }],
    [{ height: -1 }],
    [{ quality: 0 }],
    [{ quality: 101 }],
    [{ format: "gif" as "png" }],
    [{ fit: "stretch" as "cover" }],
    [{ background: "white" }],
  ])("refuses invalid modifiers %j", (modifiers) => {
    expect(() => imageUrl("/a.png", modifiers)).toThrow(RangeError);
  });

  it("refuses anything but a site path", () => {
    expect(() => imageUrl("https://elsewhere.example/a.png")).toThrow(RangeError);
    expect(() => imageUrl("//elsewhere.example/a.png")).toThrow(RangeError);
    expect(() => imageUrl("images/a.png")).toThrow(RangeError);
    expect(() => imageUrl("/images/../secrets/a.png")).toThrow(RangeError);
  });
});

describe("densitySrcset", () => {
  it("offers 1x and 2x, doubling width and height", () => {
    expect(IMAGE_DENSITIES).toEqual([1, 2]);
    expect(densitySrcset("/a.png", { width: 100, height: 50 })).toBe(
      "/_ipx/w_100&h_50&f_webp/a.png 1x, /_ipx/w_200&h_100&f_webp/a.png 2x",
    );
  });

  it("needs a size to scale", () => {
    expect(() => densitySrcset("/a.png")).toThrow(RangeError);
  });
});

describe("breakpoints and sizes", () => {
  it("are xs 320, sm 640, md 768, lg 1024, xl 1280, 2xl 1536", () => {
    expect(BREAKPOINTS).toEqual({ xs: 320, sm: 640, md: 768, lg: 1024, xl: 1280, "2xl": 1536 });
  });

  it("builds a mobile-first sizes attribute, widest breakpoint first", () => {
    expect(sizes({ default: "100vw", md: "50vw", xl: "400px" })).toBe(
      "(min-width: 1280px) 400px, (min-width: 768px) 50vw, 100vw",
    );
  });

  it("defaults to the full viewport width", () => {
    expect(sizes({})).toBe("100vw");
    expect(sizes({ "2xl": "33vw" })).toBe("(min-width: 1536px) 33vw, 100vw");
  });
});

describe("responsiveSrcset", () => {
  it("covers every breakpoint at 1x and 2x, smallest first, without duplicates", () => {
    const srcset = responsiveSrcset("/a.png", { default: "100vw", lg: "400px" });
    const widths = srcset.split(", ").map((entry) => Number(entry.split(" ")[1].replace("w", "")));
    // 100vw below lg: 320, 640, 768 at 1x and 640, 1280, 1536 at 2x; 400px from lg: 400 and 800.
    expect(widths).toEqual([320, 400, 640, 768, 800, 1280, 1536]);
    expect(srcset.startsWith("/_ipx/w_320&f_webp/a.png 320w")).toBe(true);
  });

  it("passes the other modifiers through", () => {
    expect(responsiveSrcset("/a.png", { default: "400px" }, { format: "avif", quality: 70 })).toBe(
      "/_ipx/w_400&q_70&f_avif/a.png 400w, /_ipx/w_800&q_70&f_avif/a.png 800w",
    );
  });
});
