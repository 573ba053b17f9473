/**
 * A user's own profile picture: any image the user sends becomes one square WebP, stored by its
 * hash and recorded on the user (and their identity's photo URL); served only when recorded.
 */
import { createHash, randomBytes } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { PROFILE_PICTURE_SIZE } from "../../contracts/public-site";
import type { AppContext } from "../context";
import { profilePictures, users } from "../db/schema";
import { notFound, Refusal } from "./errors";

/** Formats sharp reports for the types we accept: the bytes decide, not the declared content type. */
const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp", "gif"]);

const unsupportedImage = (detail: string) =>
  new Refusal("unsupported_media", "Unsupported media type", `Send a JPEG, PNG, WebP or GIF image: ${detail}`, [
    { path: "file", message: "Not a supported image" },
  ]);

/** The picture as a square crop at twice the largest avatar size shown, in WebP: small, and the same for every source. */
async function squarePicture(file: string): Promise<Buffer> {
  try {
    const image = sharp(file, { animated: false, limitInputPixels: 40_000_000 });
    const { format } = await image.metadata();
    if (!format || !ACCEPTED_FORMATS.has(format)) throw unsupportedImage(`the file is ${format ?? "not an image"}`);
    return await image
      .rotate()
      .resize(PROFILE_PICTURE_SIZE, PROFILE_PICTURE_SIZE, { fit: "cover" })
      .webp({ quality: 82 })
      .toBuffer();
  } catch (error) {
    if (error instanceof Refusal) throw error;
    throw unsupportedImage("the file could not be read as an image");
  }
}

/** Stores the picture in `file` (an upload's temporary file) as the user's; answers its public URL. */
export async function replaceProfilePicture(
  ctx: Pick<AppContext, "config" | "blobs" | "db" | "identity">,
  uid: string,
  file: string,
  urlOf: (sha256: string) => string,
): Promise<string> {
  const resized = await squarePicture(file);
  const sha256 = createHash("sha256").update(resized).digest("hex");
  const temp = path.join(ctx.config.dataDir, "tmp", `picture-${randomBytes(8).toString("hex")}`);
  try {
    await writeFile(temp, resized);
    await ctx.blobs.adopt(temp, sha256);
  } finally {
    await rm(temp, { force: true });
  }
  const photoURL = urlOf(sha256);
  await ctx.db
    .insert(profilePictures)
    .values({ userUid: uid, sha256, contentType: "image/webp" })
    .onConflictDoUpdate({
      target: profilePictures.userUid,
      set: { sha256, contentType: "image/webp", updatedAt: sql`now()` },
    });
  await ctx.identity.auth.updateUser(uid, { photoURL });
  await ctx.db.update(users).set({ photoUrl: photoURL, updatedAt: new Date() }).where(eq(users.uid, uid));
  return photoURL;
}

/** A recorded picture whose bytes are stored: its content type; anything else is not found. */
export async function profilePictureOf(ctx: Pick<AppContext, "blobs" | "db">, sha256: string): Promise<string> {
  const [row] = await ctx.db
    .select({ contentType: profilePictures.contentType })
    .from(profilePictures)
    .where(eq(profilePictures.sha256, sha256))
    .limit(1);
  if (!row || !(await ctx.blobs.exists(sha256))) throw notFound("That picture");
  return row.contentType;
}
