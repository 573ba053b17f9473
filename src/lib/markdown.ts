/**
 * The Markdown our docs use, parsed into blocks the docs page renders: headings (with stable ids
 * for the table of contents and deep links), paragraphs, lists, fenced code and notes ("> ").
 * Inline: `code`, **bold** and [links](/path). Anything else is shown as text, never as HTML.
 */
export type Inline =
  | { kind: "text"; text: string }
  | { kind: "code"; text: string }
  | { kind: "strong"; text: string }
  | { kind: "link"; text: string; href: string };

export type Block =
  | { kind: "heading"; level: 1 | 2 | 3 | 4; id: string; text: string }
  | { kind: "paragraph"; inline: Inline[] }
  | { kind: "list"; ordered: boolean; items: Inline[][] }
  | { kind: "code"; language: string; text: string }
  | { kind: "note"; inline: Inline[] };

export interface Heading {
  level: number;
  id: string;
  text: string;
}

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

const INLINE = /(`[^`]+`|\*\*[^*]+\*\*|\[[^\]]+\]\([^)\s]+\))/g;

export function parseInline(text: string): Inline[] {
  return text
    .split(INLINE)
    .filter((part) => part !== "")
    .map((part): Inline => {
      if (part.startsWith("`") && part.endsWith("`") && part.length > 1)
        return { kind: "code", text: part.slice(1, -1) };
      if (part.startsWith("**") && part.endsWith("**") && part.length > 4)
        return { kind: "strong", text: part.slice(2, -2) };
      const link = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(part);
      // Only our own paths and http(s) addresses become links: a javascript: URL stays text.
      if (link && /^(\/|#|https?:\/\/)/.test(link[2])) return { kind: "link", text: link[1], href: link[2] };
      return { kind: "text", text: part };
    });
}

export function parseMarkdown(source: string): Block[] {
  const blocks: Block[] = [];
  const used = new Map<string, number>();
  const uniqueId = (text: string) => {
    const base = slugify(text) || "section";
    const seen = used.get(base) ?? 0;
    used.set(base, seen + 1);
    return seen === 0 ? base : `${base}-${seen + 1}`;
  };
  const lines = source.replace(/\r\n/g, "\n").split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.trim() === "") {
      i++;
      continue;
    }
    const fence = /^```(\w*)\s*$/.exec(line);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !/^```\s*$/.test(lines[i])) body.push(lines[i++]);
      i++;
      blocks.push({ kind: "code", language: fence[1], text: body.join("\n") });
      continue;
    }
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    if (heading) {
      const text = heading[2].trim();
      blocks.push({ kind: "heading", level: heading[1].length as 1 | 2 | 3 | 4, id: uniqueId(text), text });
      i++;
      continue;
    }
    const item = /^(\s*)([-*]|\d+\.)\s+(.*)$/;
    if (item.test(line)) {
      const ordered = /^\s*\d+\./.test(line);
      const items: string[] = [];
      while (i < lines.length && lines[i].trim() !== "") {
        const match = item.exec(lines[i]);
        if (match) items.push(match[3]);
        // A wrapped line continues the item above it.
        else items[items.length - 1] += ` ${lines[i].trim()}`;
        i++;
      }
      blocks.push({ kind: "list", ordered, items: items.map(parseInline) });
      continue;
    }
    const collected: string[] = [];
    const note = line.startsWith(">");
    while (
      i < lines.length &&
      lines[i].trim() !== "" &&
      !/^(#{1,4}\s|```)/.test(lines[i]) &&
      !(collected.length > 0 && item.test(lines[i]))
    ) {
      collected.push(note ? lines[i].replace(/^>\s?/, "") : lines[i]);
      i++;
    }
    const inline = parseInline(collected.join(" ").replace(/\s+/g, " ").trim());
    blocks.push(note ? { kind: "note", inline } : { kind: "paragraph", inline });
  }
  return blocks;
}

/** The table of contents: the sections and sub-sections under the document's title. */
export function tableOfContents(blocks: Block[]): Heading[] {
  return blocks.flatMap((block) =>
    block.kind === "heading" && (block.level === 2 || block.level === 3)
      ? [{ level: block.level, id: block.id, text: block.text }]
      : [],
  );
}
