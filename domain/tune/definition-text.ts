/**
 * A definition file's bytes as text, by the file's own encoding: the one a
 * byte order mark names (UTF-8, UTF-16), else the one its XML declaration
 * declares (`<?xml version="1.0" encoding="windows-1252"?>`), else the one its
 * bytes show (../text/encoding.ts: valid UTF-8, or Windows-1252). Editors of
 * definitions are Windows tools: their `°C` is the single byte B0 when the
 * file is not UTF-8.
 */
import { byteOrderMark, decodeWith, detectEncoding } from "../text/encoding";
import { TuneError } from "./errors";

export interface DecodedDefinition {
  text: string;
  /** The WHATWG name of the encoding it was read in ("utf-8", "windows-1252", "utf-16le"…). */
  encoding: string;
}

/** The `encoding` of an XML declaration at the very start of the bytes, read as ASCII. */
function declaredEncoding(bytes: Uint8Array): string | undefined {
  const head = String.fromCharCode(...bytes.subarray(0, 200));
  return /^<\?xml\b[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(head)?.[1];
}

function decoderFor(label: string): TextDecoder | undefined {
  try {
    return new TextDecoder(label);
  } catch {
    // An encoding the platform does not know: TextDecoder throws a RangeError.
    return undefined;
  }
}

export function decodeDefinitionFile(bytes: Uint8Array): DecodedDefinition {
  const mark = byteOrderMark(bytes);
  const detected = detectEncoding(bytes);
  const declared = mark || detected.startsWith("utf-16") ? undefined : declaredEncoding(bytes);
  let decoder = new TextDecoder(detected);
  if (declared !== undefined) {
    const named = decoderFor(declared);
    if (!named)
      throw new TuneError(
        "definition_invalid",
        `the file declares the encoding "${declared}", which is not one we can read: save it as UTF-8 or Windows-1252`,
        { problems: [] },
      );
    // A file that says UTF-8 but is not (an editor that kept the declaration and wrote its own code page) is read
    // as what its bytes show; any other declaration is the file's word.
    if (named.encoding !== "utf-8" && !named.encoding.startsWith("utf-16")) decoder = named;
  }
  return { text: decodeWith(decoder, bytes.subarray(mark?.length ?? 0)), encoding: decoder.encoding };
}
