import { createHash, randomBytes } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import sharp from "sharp";
import { z } from "zod";
import { apiRoutes } from "../../contracts/api-paths";
import {
  PROFILE_PICTURE_MAX_BYTES,
  PROFILE_PICTURE_SIZE,
  profilePictureAnswerSchema,
} from "../../contracts/public-site";
import type { AppContext } from "../context";
import { profilePictures, users } from "../db/schema";
import { forbidden, HttpError, notFound } from "../errors";
import { callerOf } from "../http/auth";
import { requireFile, withUpload } from "../http/uploads";
import type { ZodTypeProvider } from "../http/zod";

const idParams = z.strictObject({ id: z.string().min(1).max(128) });
const pictureParams = z.strictObject({ sha256: z.string().regex(/^[0-9a-f]{64}$/, "Not a picture id") });
/** Formats sharp reports for the types we accept: the bytes decide, not the declared content type. */
const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp", "gif"]);

const unsupportedImage = (detail: string) =>
  new HttpError(415, "Unsupported media type", `Send a JPEG, PNG, WebP or GIF image: ${detail}`, [
    { path: "file", message: "Not a supported image" },
  ]);

/** The signed-in user's own picture (signing out everywhere and deleting the account: routes/users.ts). */
export async function profileRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { auth } = ctx.identity;

  app.post(
    `/${apiRoutes.users.profilePicture(":id")}`,
    { schema: { params: idParams, response: { 201: profilePictureAnswerSchema } } },
    async (request, reply) => {
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
            if (!format || !ACCEPTED_FORMATS.has(format))
              throw unsupportedImage(`the file is ${format ?? "not an image"}`);
            // A square crop at twice the largest avatar size shown, in WebP: small, and the same for every source.
            resized = await image
              .rotate()
              .resize(PROFILE_PICTURE_SIZE, PROFILE_PICTURE_SIZE, { fit: "cover" })
              .webp({ quality: 82 })
              .toBuffer();
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
        .onConflictDoUpdate({
          target: profilePictures.userUid,
          set: { sha256, contentType: "image/webp", updatedAt: sql`now()` },
        });
      await auth.updateUser(id, { photoURL });
      await ctx.db.update(users).set({ photoUrl: photoURL, updatedAt: new Date() }).where(eq(users.uid, id));
      return reply.status(201).send({ photoURL });
    },
  );

  // Addressed by content hash, so the URL is unguessable and never changes meaning; only profile pictures are served.
  app.get(
    "/profile-pictures/:sha256",
    { config: { public: true }, schema: { params: pictureParams } },
    async (request, reply) => {
      const { sha256 } = request.params;
      const [row] = await ctx.db
        .select({ contentType: profilePictures.contentType })
        .from(profilePictures)
        .where(eq(profilePictures.sha256, sha256))
        .limit(1);
      if (!row || !(await ctx.blobs.exists(sha256))) throw notFound("That picture");
      return reply.type(row.contentType).send(ctx.blobs.stream(sha256));
    },
  );
}
