/**
 * The files of a profile change request: documents are identified by their first bytes (the
 * declared type and the name say nothing), the logo is decoded and re-encoded as a small WebP.
 * Re-encoding keeps nothing of the upload but its pixels, so a logo cannot carry a script or an
 * oversized image to the public pages. SVG is refused rather than served: it is a document that
 * may run scripts, and its safe serving (a sandboxing CSP on every route that shows it, and never
 * inline in our pages) is more than a logo needs.
 */
import { open } from "node:fs/promises";
import sharp from "sharp";
import { type DocumentType, LOGO_SIZE } from "../../contracts/profile-change-requests";
import type { BlobStore } from "./blob-store";
import { Refusal } from "./errors";
import type { UploadedFile } from "./uploaded-file";

const SIGNATURES: Array<{ type: DocumentType; matches: (head: Buffer) => boolean }> = [
  { type: "application/pdf", matches: (head) => head.subarray(0, 5).toString("latin1") === "%PDF-" },
  {
    type: "image/png",
    matches: (head) => head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  { type: "image/jpeg", matches: (head) => head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff },
  {
    type: "image/webp",
    matches: (head) =>
      head.subarray(0, 4).toString("latin1") === "RIFF" && head.subarray(8, 12).toString("latin1") === "WEBP",
  },
];

async function headOf(file: string): Promise<Buffer> {
  const handle = await open(file, "r");
  try {
    const head = Buffer.alloc(16);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

const unsupported = (field: string, name: string, wanted: string) =>
  new Refusal("unsupported_media", "Unsupported media type", `${name || "The file"} is not ${wanted}`, [
    { path: field, message: `${name || "a file"}: send ${wanted}` },
  ]);

/** The document's type from its bytes; a 415 naming the file otherwise. */
export async function documentTypeOf(file: UploadedFile): Promise<DocumentType> {
  const head = await headOf(file.path);
  const found = SIGNATURES.find((signature) => signature.matches(head));
  if (!found) throw unsupported(file.field, file.filename, "a PDF, PNG, JPEG or WebP file");
  return found.type;
}

const LOGO_FORMATS = new Set(["png", "jpeg", "webp"]);

/** The logo decoded, fitted within LOGO_SIZE pixels and stored as WebP; answers its hash and size. */
export async function storeLogo(blobs: BlobStore, file: UploadedFile): Promise<{ sha256: string; size: number }> {
  let bytes: Buffer;
  try {
    const image = sharp(file.path, { animated: false, limitInputPixels: 25_000_000 });
    const { format } = await image.metadata();
    if (format === "svg")
      throw unsupported(
        file.field,
        file.filename,
        "a PNG, JPEG or WebP image (SVG logos are refused: they can carry scripts)",
      );
    if (!format || !LOGO_FORMATS.has(format)) throw unsupported(file.field, file.filename, "a PNG, JPEG or WebP image");
    bytes = await image
      .rotate()
      .resize(LOGO_SIZE, LOGO_SIZE, { fit: "inside", withoutEnlargement: true })
      .webp({ quality: 85 })
      .toBuffer();
  } catch (error) {
    if (error instanceof Refusal) throw error;
    throw unsupported(file.field, file.filename, "an image that can be read (PNG, JPEG or WebP)");
  }
  return { sha256: await blobs.put(bytes), size: bytes.length };
}
