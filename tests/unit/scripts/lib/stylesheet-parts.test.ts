import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { STYLESHEET_PART_BYTES, splitStylesheet } from "../../../../scripts/lib/stylesheet-parts";

const rule = (name: string, body = "color:red;") => `.${name}{${body}}`;

describe("an antd stylesheet cut into parts", () => {
  it("keeps a sheet within the limit whole", () => {
    const css = rule("a") + rule("b");
    expect(splitStylesheet(css, 100)).toEqual([css]);
  });

  it("cuts only between top-level rules, each part within the limit, and joined they are the sheet again", () => {
    const css = Array.from({ length: 40 }, (_, index) => rule(`r${index}`, "margin:0 auto;padding:4px;")).join("");
    const parts = splitStylesheet(css, 120);
    expect(parts.length).toBeGreaterThan(5);
    expect(parts.join("")).toBe(css);
    for (const part of parts) {
      expect(Buffer.byteLength(part)).toBeLessThanOrEqual(120);
      expect(part).toMatch(/^\.r\d+\{.*\}$/);
    }
  });

  it("never cuts inside an at-rule's block, a string or a comment that holds braces", () => {
    const media = `@media (max-width:575px){${rule("m1")}${rule("m2")}${rule("m3")}}`;
    const quoted = `.q::before{content:"} .x{";}`;
    const comment = `/* } { */${rule("c")}`;
    const css = rule("a") + media + quoted + comment + rule("z");
    const parts = splitStylesheet(css, 40);
    expect(parts.join("")).toBe(css);
    expect(parts).toContain(media);
    expect(parts.some((part) => part.includes(quoted))).toBe(true);
    expect(parts.every((part) => !part.startsWith("*/") && !part.startsWith(" .x"))).toBe(true);
  });

  it("gives a rule larger than the limit a part of its own", () => {
    const big = rule("big", "x".repeat(300));
    expect(splitStylesheet(rule("a") + big + rule("b"), 100)).toEqual([rule("a"), big, rule("b")]);
  });

  it("counts bytes, not characters", () => {
    const wide = rule("w", `content:"${"é".repeat(30)}";`);
    const parts = splitStylesheet(wide + wide, Buffer.byteLength(wide) + 10);
    expect(parts).toEqual([wide, wide]);
  });

  it(`cuts a large real sheet (antd's reset, many times over) into parts of at most ${STYLESHEET_PART_BYTES / 1000} kB`, () => {
    const css = readFileSync(new URL("../../../../node_modules/antd/dist/reset.css", import.meta.url), "utf8").repeat(
      400,
    );
    const parts = splitStylesheet(css);
    expect(parts.join("")).toBe(css);
    expect(Math.max(...parts.map((part) => Buffer.byteLength(part)))).toBeLessThanOrEqual(STYLESHEET_PART_BYTES);
  });
});
