/**
 * Random access to the first lines of a file, decoded on demand: format detection and header
 * parsing look at a few dozen lines (a few hundred for Haltech's channel list) and must not
 * split a 150 MB file into strings to do it. Lines end at LF, CRLF or a lone CR (WinLog).
 */
/**
 * No header or preamble line comes near this (2048 columns of 512 characters); a longer line is
 * data or junk, and decoding and splitting all of it would only make refusing it slow.
 */
const MAX_LINE_BYTES = 1024 * 1024;

export class TextLines {
  readonly bytes: Uint8Array;
  private readonly decoder: TextDecoder;
  private readonly starts: number[] = [0];
  private readonly ends: number[] = [];
  private readonly texts: string[] = [];
  private scanned = 0;

  constructor(bytes: Uint8Array, decoder: TextDecoder) {
    this.bytes = bytes;
    this.decoder = decoder;
  }

  /** The text of line `index` (0-based) without its line ending (at most 1 MiB of it), or undefined past the end. */
  get(index: number): string | undefined {
    if (!this.reach(index)) return undefined;
    let text = this.texts[index];
    if (text === undefined) {
      const start = this.starts[index];
      text = this.decoder.decode(this.bytes.subarray(start, Math.min(this.ends[index], start + MAX_LINE_BYTES)));
      this.texts[index] = text;
    }
    return text;
  }

  /** Byte offset where line `index` starts; for one past the last line, the file length. */
  startOf(index: number): number {
    if (this.reach(index)) return this.starts[index];
    return Math.min(this.starts[this.scanned], this.bytes.length);
  }

  /** Lines `from`..`to` (exclusive) that exist. */
  slice(from: number, to: number): string[] {
    const out: string[] = [];
    for (let i = from; i < to; i++) {
      const line = this.get(i);
      if (line === undefined) break;
      out.push(line);
    }
    return out;
  }

  private reach(index: number): boolean {
    const bytes = this.bytes;
    while (this.scanned <= index) {
      const start = this.starts[this.scanned];
      if (start >= bytes.length) return false;
      let i = start;
      while (i < bytes.length && bytes[i] !== 10 && bytes[i] !== 13) i++;
      this.ends.push(i);
      if (i < bytes.length && bytes[i] === 13 && bytes[i + 1] === 10) i++;
      this.starts.push(i + 1);
      this.scanned++;
    }
    return true;
  }
}
