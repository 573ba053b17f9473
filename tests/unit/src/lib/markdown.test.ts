import { describe, expect, it } from "vitest";
import { parseInline, parseMarkdown, slugify, tableOfContents } from "../../../../src/lib/markdown";

describe("docs Markdown", () => {
  it("parses headings, paragraphs, lists, code and notes", () => {
    const blocks = parseMarkdown(
      [
        "# Title",
        "",
        "Intro line one",
        "and two.",
        "",
        "## Steps",
        "",
        "1. First",
        "2. Second",
        "   wrapped",
        "",
        "- a",
        "- b",
        "",
        "```sh",
        "npm start",
        "```",
        "",
        "> Never unplug.",
      ].join("\n"),
    );
    expect(blocks).toEqual([
      { kind: "heading", level: 1, id: "title", text: "Title" },
      { kind: "paragraph", inline: [{ kind: "text", text: "Intro line one and two." }] },
      { kind: "heading", level: 2, id: "steps", text: "Steps" },
      {
        kind: "list",
        ordered: true,
        items: [[{ kind: "text", text: "First" }], [{ kind: "text", text: "Second wrapped" }]],
      },
      { kind: "list", ordered: false, items: [[{ kind: "text", text: "a" }], [{ kind: "text", text: "b" }]] },
      { kind: "code", language: "sh", text: "npm start" },
      { kind: "note", inline: [{ kind: "text", text: "Never unplug." }] },
    ]);
  });

  it("gives repeated headings distinct ids and lists sections for the table of contents", () => {
    const blocks = parseMarkdown("# Doc\n\n## Setup\n\n### Setup\n\n## What's next?\n\n#### Detail");
    expect(tableOfContents(blocks)).toEqual([
      { level: 2, id: "setup", text: "Setup" },
      { level: 3, id: "setup-2", text: "Setup" },
      { level: 2, id: "what-s-next", text: "What's next?" },
    ]);
    expect(slugify("  1. Create an account ")).toBe("1-create-an-account");
  });

  it("reads inline code, bold and links, and keeps other URLs as text", () => {
    expect(parseInline("Run `npm start`, see **this** and [the FAQ](/faqs).")).toEqual([
      { kind: "text", text: "Run " },
      { kind: "code", text: "npm start" },
      { kind: "text", text: ", see " },
      { kind: "strong", text: "this" },
      { kind: "text", text: " and " },
      { kind: "link", text: "the FAQ", href: "/faqs" },
      { kind: "text", text: "." },
    ]);
    const unsafe = parseInline("[x](javascript:alert(1))");
    expect(unsafe.every((part) => part.kind === "text")).toBe(true);
    expect(unsafe.map((part) => part.text).join("")).toBe("[x](javascript:alert(1))");
  });
});
