import { createHash, randomBytes } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import sharp from "sharp";
import { z } from "zod";
import { PROFILE_PICTURE_MAX_BYTES, PROFILE_PICTURE_SIZE, profilePictureAnswerSchema } from "../../contracts/public-site";
import type { AppContext } from "../context";
import { profilePictures, users } from "../db/schema";
import { HttpError, forbidden, notFound } from "../errors";
import { assertSelfOrAdmin, callerOf } from "../http/auth";
import { requireFile, withUpload } from "../http/uploads";
import type { ZodTypeProvider } from "../http/zod";
import { apiRoutes } from "../../contracts/api-paths";

const idParams = z.strictObject({ id: z.string().min(1).max(128) });
const pictureParams = z.strictObject({ sha256: z.string().regex(/^[0-9a-f]{64}$/, "Not a picture id") });
/** Deleting an account needs a sign-in this recent, as the identity service asks for its own sensitive operations. */
export const RECENT_SIGN_IN_MS = 5 * 60 * 1000;
/** Formats sharp reports for the types we accept: the bytes decide, not the declared content type. */
const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp", "gif"]);

const unsupportedImage = (detail: string) =>
  new HttpError(415, "Unsupported media type", `Send a JPEG, PNG, WebP or GIF image: ${detail}`, [{ path: "file", message: "Not a supported image" }]);

interface PgError {
  code?: string;
  cause?: PgError;
}
const isForeignKeyViolation = (error: unknown) => ((error as PgError).cause ?? (error as PgError)).code === "23503";

/** The signed-in user's own account: picture, signing out everywhere, deleting the account. */
export async function profileRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { auth } = ctx.identity;

  app.post(`/${apiRoutes.users.profilePicture(":id")}`, { schema: { params: idParams, response: { 201: profilePictureAnswerSchema } } }, async (request, reply) => {
    const caller = callerOf(request);
    const { id } = request.params;
    if (caller.uid !== id) throw forbidden("You can only change your own picture");
    const sha256 = await withUpload(
      request,
      ctx,
      async (upload) => {
        const file = requireFile(upload);
        let resized: Buffer;
        try {
          const image = sharp(file.path, { animated: false, limitInputPixels: 40_000_000 });
          const { format } = await image.metadata();
          if (!format || !ACCEPTED_FORMATS.has(format)) throw unsupportedImage(`the file is ${format ?? "not an image"}`);
          // A square crop at twice the largest avatar size shown, in WebP: small, and the same for every source.
          resized = await image.rotate().resize(PROFILE_PICTURE_SIZE, PROFILE_PICTURE_SIZE, { fit: "cover" }).webp({ quality: 82 }).toBuffer();
        } catch (error) {
          if (error instanceof HttpError) throw error;
          throw unsupportedImage("the file could not be read as an image");
        }
        const hash = createHash("sha256").update(resized).digest("hex");
        const temp = path.join(ctx.config.dataDir, "tmp", `picture-${randomBytes(8).toString("hex")}`);
        try {
          await writeFile(temp, resized);
          await ctx.blobs.adopt(temp, hash);
        } finally {
          await rm(temp, { force: true });
        }
        return hash;
      },
      { limitBytes: PROFILE_PICTURE_MAX_BYTES },
    );
    const photoURL = `${request.protocol}://${request.host}/api/v1/profile-pictures/${sha256}`;
    await ctx.db
      .insert(profilePictures)
      .values({ userUid: id, sha256, contentType: "image/webp" })
      .onConflictDoUpdate({ target: profilePictures.userUid, set: { sha256, contentType: "image/webp", updatedAt: sql`now()` } });
    await auth.updateUser(id, { photoURL });
    await ctx.db.update(users).set({ photoUrl: photoURL, updatedAt: new Date() }).where(eq(users.uid, id));
    return reply.status(201).send({ photoURL });
  });

  // Addressed by content hash, so the URL is unguessable and never changes meaning; only profile pictures are served.
  app.get("/profile-pictures/:sha256", { config: { public: true }, schema: { params: pictureParams } }, async (request, reply) => {
    const { sha256 } = request.params;
    const [row] = await ctx.db.select({ contentType: profilePictures.contentType }).from(profilePictures).where(eq(profilePictures.sha256, sha256)).limit(1);
    if (!row || !(await ctx.blobs.exists(sha256))) throw notFound("That picture");
    return reply.type(row.contentType).send(ctx.blobs.stream(sha256));
  });

  app.post(`/${apiRoutes.users.revokeSessions(":id")}`, { schema: { params: idParams } }, async (request, reply) => {
    const caller = callerOf(request);
    const { id } = request.params;
    assertSelfOrAdmin(caller, id);
    // Every refresh token dies; ID tokens already issued fail revocation checks from now on.
    await auth.revokeRefreshTokens(id);
    return reply.status(204).send();
  });

  app.delete(`/${apiRoutes.users.record(":id")}`, { schema: { params: idParams } }, async (request, reply) => {
    const caller = callerOf(request);
    const { id } = request.params;
    if (caller.uid !== id) throw forbidden("You can only delete your own account");
    const signedInAt = Number(caller.claims.auth_time) * 1000;
    if (!(Date.now() - signedInAt <= RECENT_SIGN_IN_MS)) {
      throw new HttpError(403, "Forbidden", "Sign in again before deleting your account", [{ path: "auth_time", message: "requires-recent-login" }]);
    }
    const [picture] = await ctx.db.select({ sha256: profilePictures.sha256 }).from(profilePictures).where(eq(profilePictures.userUid, id));
    await ctx.db.transaction(async (tx) => {
      try {
        // Our rows hang off users with ON DELETE CASCADE (vehicles, logs, dealer profile, picture)...
        await tx.transaction(async (savepoint) => {
          await savepoint.delete(users).where(eq(users.uid, id));
        });
      } catch (error) {
        if (!isForeignKeyViolation(error)) throw error;
        // ...except audit records (such as secret reveals) that must outlive the person: keep the row, drop who they were.
        await tx
          .update(users)
          .set({ email: null, displayName: null, photoUrl: null, phoneNumber: null, disabled: true, preferences: {}, updatedAt: new Date() })
          .where(eq(users.uid, id));
        await tx.delete(profilePictures).where(eq(profilePictures.userUid, id));
      }
      // Inside the transaction: if the identity service refuses, our rows stay as they were.
      try {
        await auth.deleteUser(id);
      } catch (error) {
        if ((error as { code?: string }).code !== "auth/user-not-found") throw error;
      }
    });
    ctx.users.forget(id);
    if (picture) {
      const [stillUsed] = await ctx.db.select({ uid: profilePictures.userUid }).from(profilePictures).where(eq(profilePictures.sha256, picture.sha256)).limit(1);
      if (!stillUsed) await rm(ctx.blobs.pathOf(picture.sha256), { force: true });
    }
    return reply.status(204).send();
  });
}
