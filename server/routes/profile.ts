import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiRoutes } from "../../contracts/api-paths";
import {
  PROFILE_PICTURE_MAX_BYTES,
  PROFILE_PICTURE_TYPES,
  profilePictureAnswerSchema,
} from "../../contracts/public-site";
import type { AppContext } from "../context";
import { forbidden } from "../errors";
import { callerOf } from "../http/auth";
import { bytesAnswer, multipartBody } from "../http/media";
import { requireFile, withUpload } from "../http/uploads";
import type { ZodTypeProvider } from "../http/zod";
import { profilePictureOf, replaceProfilePicture } from "../services/profile";

const idParams = z.strictObject({ id: z.string().min(1).max(128) });
const pictureParams = z.strictObject({ sha256: z.string().regex(/^[0-9a-f]{64}$/, "Not a picture id") });

/** The signed-in user's own picture (signing out everywhere and deleting the account: routes/users.ts). */
export async function profileRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();

  app.post(
    `/${apiRoutes.users.profilePicture(":id")}`,
    {
      config: { media: multipartBody({ file: "The picture" }) },
      schema: { params: idParams, response: { 201: profilePictureAnswerSchema } },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const { id } = request.params;
      if (caller.uid !== id) throw forbidden("You can only change your own picture");
      const pictureUrl = (sha256: string) => `${request.protocol}://${request.host}/api/v1/profile-pictures/${sha256}`;
      const photoURL = await withUpload(
        request,
        ctx,
        async (upload) => replaceProfilePicture(ctx, id, requireFile(upload).path, pictureUrl),
        { limitBytes: PROFILE_PICTURE_MAX_BYTES },
      );
      return reply.status(201).send({ photoURL });
    },
  );

  // Addressed by content hash, so the URL is unguessable and never changes meaning; only profile pictures are served.
  app.get(
    "/profile-pictures/:sha256",
    {
      config: { public: true, media: bytesAnswer({ types: PROFILE_PICTURE_TYPES, attachment: false }) },
      schema: { params: pictureParams },
    },
    async (request, reply) => {
      const { sha256 } = request.params;
      const contentType = await profilePictureOf(ctx, sha256);
      const body = await ctx.blobs.stream(sha256);
      return reply.type(contentType).send(body);
    },
  );
}
