/**
 * A small XML reader, enough for definition files (TunerPro XDF): elements,
 * attributes, text, CDATA, comments, processing instructions and a DOCTYPE
 * are understood; namespaces and DTD validation are not needed and not done.
 * It builds a tree, refuses malformed markup with the line it is on, and never
 * resolves external entities (there is nothing to fetch).
 *
 * Nesting is followed with a stack of open elements, not recursion, and is
 * limited (XML_LIMITS) together with the document's length and element count,
 * so a hostile document is refused with an XmlError instead of overflowing the
 * call stack or filling the memory.
 */

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** Concatenated text directly inside the element, entities decoded, not trimmed. */
  text: string;
  line: number;
}

export class XmlError extends Error {
  readonly line: number;

  constructor(message: string, line: number) {
    super(`${message} (line ${line})`);
    this.name = "XmlError";
    this.line = line;
  }
}

export interface XmlLimits {
  /** Elements inside one another, the root being 1. XDFs nest about 5 deep. */
  maxDepth: number;
  /** Characters of the document: as much as the XDF import accepts (contracts/tune-files.ts). */
  maxLength: number;
  /** Elements in all: the largest XDF we know has about 74,000. */
  maxElements: number;
}

export const XML_LIMITS: XmlLimits = { maxDepth: 256, maxLength: 8 * 1024 * 1024, maxElements: 500_000 };

const NAME = /[A-Za-z_:][-A-Za-z0-9_:.]*/y;
const SPACE = /\s*/y;
const NAMED_ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

class Reader {
  private pos = 0;
  private elements = 0;
  /** Offsets where each line starts; every element records its line, so lookups must be cheap. */
  private readonly lineStarts: number[] = [0];

  constructor(
    private readonly src: string,
    private readonly limits: XmlLimits,
    /** When given, a local slip (an end tag that closes another element, an element never closed) is noted here and read past. */
    private readonly slips?: XmlSlip[],
  ) {
    for (let i = src.indexOf("\n"); i >= 0; i = src.indexOf("\n", i + 1)) this.lineStarts.push(i + 1);
  }

  private line(at = this.pos): number {
    let lo = 0;
    let hi = this.lineStarts.length;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (this.lineStarts[mid] <= at) lo = mid;
      else hi = mid;
    }
    return lo + 1;
  }

  private fail(message: string, at = this.pos): never {
    throw new XmlError(message, this.line(at));
  }

  private skipSpace(): void {
    SPACE.lastIndex = this.pos;
    SPACE.exec(this.src);
    this.pos = SPACE.lastIndex;
  }

  private name(): string {
    NAME.lastIndex = this.pos;
    const match = NAME.exec(this.src);
    if (!match) this.fail(`expected a name, found ${JSON.stringify(this.src.slice(this.pos, this.pos + 10))}`);
    this.pos += match[0].length;
    return match[0];
  }

  /** Skips past `terminator`, refusing a construct left open at the end of the file. */
  private skipPast(terminator: string, what: string): number {
    const at = this.src.indexOf(terminator, this.pos);
    if (at < 0) this.fail(`unterminated ${what}`);
    const start = this.pos;
    this.pos = at + terminator.length;
    return start;
  }

  private decode(raw: string, at: number): string {
    if (!raw.includes("&")) return raw;
    return raw.replace(/&(#x[0-9a-fA-F]+|#\d+|[A-Za-z]+);|&/g, (whole, entity: string | undefined) => {
      if (entity === undefined) this.fail("'&' must be written &amp;", at);
      if (entity.startsWith("#")) {
        const code = entity[1] === "x" ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
        if (!(code >= 0 && code <= 0x10ffff)) this.fail(`invalid character reference ${whole}`, at);
        return String.fromCodePoint(code);
      }
      const named = NAMED_ENTITIES[entity];
      if (named === undefined) this.fail(`unknown entity ${whole}`, at);
      return named;
    });
  }

  /** Skips the prolog's declarations, comments and whitespace. */
  private misc(): void {
    for (;;) {
      this.skipSpace();
      if (this.src.startsWith("<?", this.pos)) this.skipPast("?>", "processing instruction");
      else if (this.src.startsWith("<!--", this.pos)) this.skipPast("-->", "comment");
      else if (this.src.startsWith("<!DOCTYPE", this.pos)) this.doctype();
      else return;
    }
  }

  private doctype(): void {
    // An internal subset in [...] may itself contain '>'.
    let depth = 0;
    for (let i = this.pos; i < this.src.length; i++) {
      const c = this.src[i];
      if (c === "[") depth++;
      else if (c === "]") depth--;
      else if (c === ">" && depth <= 0) {
        this.pos = i + 1;
        return;
      }
    }
    this.fail("unterminated DOCTYPE");
  }

  document(): XmlElement {
    if (this.src.charCodeAt(0) === 0xfeff) this.pos = 1;
    this.misc();
    if (this.src[this.pos] !== "<") this.fail("expected the root element");
    const root = this.element();
    this.misc();
    if (this.pos < this.src.length) this.fail("content after the root element");
    return root;
  }

  /** A start tag at `<`: the element (no children yet) and whether it closed itself (`<a/>`). */
  private startTag(): { element: XmlElement; closed: boolean } {
    if (++this.elements > this.limits.maxElements)
      this.fail(`the document has more than ${this.limits.maxElements} elements`);
    const line = this.line();
    this.pos++; // '<'
    const name = this.name();
    const attributes: Record<string, string> = {};
    for (;;) {
      const before = this.pos;
      this.skipSpace();
      const c = this.src[this.pos];
      if (c === "/" && this.src[this.pos + 1] === ">") {
        this.pos += 2;
        return { element: { name, attributes, children: [], text: "", line }, closed: true };
      }
      if (c === ">") {
        this.pos++;
        return { element: { name, attributes, children: [], text: "", line }, closed: false };
      }
      if (c === undefined) this.fail(`unterminated start tag <${name}>`);
      if (this.pos === before) this.fail(`expected whitespace before an attribute in <${name}>`);
      const attribute = this.name();
      this.skipSpace();
      if (this.src[this.pos] !== "=") this.fail(`attribute ${attribute} of <${name}> has no value`);
      this.pos++;
      this.skipSpace();
      const quote = this.src[this.pos];
      if (quote !== '"' && quote !== "'") this.fail(`attribute ${attribute} of <${name}> must be quoted`);
      this.pos++;
      const start = this.skipPast(quote, `attribute ${attribute}`);
      const raw = this.src.slice(start, this.pos - 1);
      if (raw.includes("<")) this.fail(`'<' inside attribute ${attribute} of <${name}>`, start);
      if (Object.hasOwn(attributes, attribute)) this.fail(`attribute ${attribute} repeated in <${name}>`);
      attributes[attribute] = this.decode(raw, start);
    }
  }

  /** The element at `<` with everything inside it; `open` holds the elements not yet closed, innermost last. */
  private element(): XmlElement {
    const root = this.startTag();
    if (root.closed) return root.element;
    const open: XmlElement[] = [root.element];
    for (;;) {
      const current = open[open.length - 1];
      const lt = this.src.indexOf("<", this.pos);
      if (lt < 0) {
        if (!this.slips) this.fail(`<${current.name}> opened on line ${current.line} is never closed`);
        for (const unclosed of open.reverse())
          this.slips.push({ line: unclosed.line, message: `<${unclosed.name}> is never closed` });
        current.text += this.decode(this.src.slice(this.pos), this.pos);
        this.pos = this.src.length;
        return root.element;
      }
      if (lt > this.pos) current.text += this.decode(this.src.slice(this.pos, lt), this.pos);
      this.pos = lt;
      if (this.src.startsWith("</", this.pos)) {
        this.pos += 2;
        const closing = this.name();
        this.skipSpace();
        if (this.src[this.pos] !== ">") this.fail(`malformed end tag </${closing}>`);
        this.pos++;
        if (closing !== current.name) {
          const message = `</${closing}> closes <${current.name}> opened on line ${current.line}`;
          if (!this.slips) this.fail(message);
          // An end tag of an element further out closes the ones inside it; any other closes the current one.
          const outer = open.findLastIndex((element) => element.name === closing);
          const closed = outer >= 0 ? open.splice(outer) : [open.pop() as XmlElement];
          this.slips.push({
            line: this.line(lt),
            message:
              outer >= 0
                ? closed
                    .slice(1)
                    .map((e) => `<${e.name}> opened on line ${e.line} is never closed`)
                    .join("; ")
                : message,
          });
          if (open.length === 0) return root.element;
          continue;
        }
        open.pop();
        if (open.length === 0) return current;
      } else if (this.src.startsWith("<!--", this.pos)) this.skipPast("-->", "comment");
      else if (this.src.startsWith("<![CDATA[", this.pos)) {
        this.pos += 9;
        const start = this.skipPast("]]>", "CDATA section");
        current.text += this.src.slice(start, this.pos - 3);
      } else if (this.src.startsWith("<?", this.pos)) this.skipPast("?>", "processing instruction");
      else {
        if (open.length >= this.limits.maxDepth)
          this.fail(`elements are nested more than ${this.limits.maxDepth} deep`);
        const child = this.startTag();
        current.children.push(child.element);
        if (!child.closed) open.push(child.element);
      }
    }
  }
}

/** A well-formedness slip read past: where, and what. */
export interface XmlSlip {
  line: number;
  message: string;
}

/**
 * The document's root element; an XmlError for malformed markup or a document past the limits.
 * Given `slips`, an end tag that closes another element and elements never closed are noted
 * there and read as far as they go instead (as TunerPro opens such files).
 */
export function parseXml(src: string, limits: Partial<XmlLimits> = {}, slips?: XmlSlip[]): XmlElement {
  const effective = { ...XML_LIMITS, ...limits };
  if (src.length > effective.maxLength)
    throw new XmlError(`the document has ${src.length} characters, more than the ${effective.maxLength} allowed`, 1);
  return new Reader(src, effective, slips).document();
}

/** Children named `name`, compared case-insensitively (XDF files are not consistent about case). */
export function childrenNamed(element: XmlElement, name: string): XmlElement[] {
  const wanted = name.toLowerCase();
  return element.children.filter((c) => c.name.toLowerCase() === wanted);
}

export function childNamed(element: XmlElement, name: string): XmlElement | undefined {
  return childrenNamed(element, name)[0];
}

/** An attribute by case-insensitive name. */
export function attribute(element: XmlElement, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const key of Object.keys(element.attributes)) if (key.toLowerCase() === wanted) return element.attributes[key];
  return undefined;
}
