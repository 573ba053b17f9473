/**
 * The pre-flight and the licence in one answer (`POST /user-vehicles/{id}/flash-authentication`),
 * and the bootloader a granted flash needs (`GET /user-vehicles/{id}/read-bootloader/{x}`).
 * The app sends what it reads from the car now and the ECU's security-access seed; the server
 * answers a one-use grant and the key for the seed, so the seed/key algorithm and its secret stay here.
 */

import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { apiPaths } from "../../contracts/api-paths";
import {
  FLASH_GRANT_TTL_MS,
  type FlashAuthenticationAnswer,
  flashAuthenticationAnswerSchema,
  flashAuthenticationSchema,
  type PreflightCheck,
} from "../../contracts/flash-logs";
import { computeKey, isUnlockedSeed, SeedKeyError } from "../../domain/flashing/seed-key";
import type { AppContext } from "../context";
import { badRequest, notFound } from "../errors";
import { callerOf } from "../http/auth";
import { idParams } from "../http/crud";
import { bytesAnswer } from "../http/media";
import type { ZodTypeProvider } from "../http/zod";
import { flashingSupportOf, grantOfToken, grantToken, insertGrant } from "../services/flash-grants";
import { type PreflightPassed, PreflightRefused, type PreflightResult, preflight } from "../services/flash-preflight";
import { vehicleFor } from "../services/tune-access";

const VEHICLES = `/${apiPaths["user-vehicles"].list}`;

const hexBytes = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
const toHex = (bytes: Uint8Array) =>
  Array.from(bytes, (b) => b.toString(16).padStart(2, "0"))
    .join("")
    .toUpperCase();

/** `x` is the flashing support's firmware record id, or its firmware id. */
const bootloaderParams = z.strictObject({ id: z.uuid("id must be a UUID"), x: z.string().min(1).max(64) });
const bootloaderQuery = z.strictObject({ grant: z.string().max(512).optional() });

export async function flashAuthenticationRoutes(plugin: FastifyInstance, { ctx }: { ctx: AppContext }) {
  registerFlashAuthenticationRoute(plugin, ctx);
  registerBootloaderRoute(plugin, ctx);
}

/** The pre-flight, and when it passes a one-use grant and the key for the ECU's seed. */
function registerFlashAuthenticationRoute(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  app.post(
    `${VEHICLES}/:id/flash-authentication`,
    {
      schema: { params: idParams, body: flashAuthenticationSchema, response: { 201: flashAuthenticationAnswerSchema } },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const body = request.body;
      const { vehicle, owner } = await vehicleFor(db, request.params.id, caller);
      // Whoever watches the car (its page, after handing the flash over) sees the app's pre-flight.
      const tell = (failed: PreflightCheck | null, checks: PreflightResult[]) =>
        ctx.vehicleEvents.publish(vehicle.id, {
          type: "preflight",
          preflight: { passed: failed === null, kind: body.kind, failed, checks, at: new Date().toISOString() },
        });
      let passed: PreflightPassed;
      try {
        passed = await preflight(ctx, vehicle, owner, body);
      } catch (error) {
        if (error instanceof PreflightRefused) tell(error.check, error.checks);
        throw error;
      }
      const seed = hexBytes(body.seed);
      let key: Uint8Array;
      try {
        key = isUnlockedSeed(seed)
          ? new Uint8Array(0)
          : computeKey(passed.profile.seedKeyAlgorithm, seed, passed.secret);
      } catch (error) {
        if (error instanceof SeedKeyError)
          throw badRequest("Invalid body", error.message, [{ path: "seed", message: error.message }]);
        throw error;
      }
      const grant = await insertGrant(db, {
        vehicleId: vehicle.id,
        grantedTo: caller.uid,
        kind: passed.kind,
        bakedTuneFileId: passed.bakedTuneFileId,
        tuneFileId: passed.tuneFileId,
        sha256: passed.sha256,
        vin: body.vin,
        ecuSerial: body.ecu.ecuSerial,
        softwareId: body.ecu.softwareId,
        firmwareId: passed.firmwareId,
        batteryVolts: body.batteryVolts,
        expiresAt: new Date(Date.now() + FLASH_GRANT_TTL_MS),
      });
      const answer: FlashAuthenticationAnswer = {
        grant: {
          id: grant.id,
          token: grantToken(ctx.secrets, grant),
          vehicleId: vehicle.id,
          kind: grant.kind,
          bakedTuneFileId: grant.bakedTuneFileId,
          sha256: grant.sha256,
          ecuSerial: grant.ecuSerial,
          firmwareId: grant.firmwareId,
          expiresAt: grant.expiresAt.toISOString(),
        },
        key: toHex(key),
        securityLevel: passed.profile.securityLevel,
        checks: passed.checks,
        blocks: passed.blocks,
        bootloaderPath: passed.hasBootloader
          ? `${VEHICLES.slice(1)}/${vehicle.id}/read-bootloader/${passed.firmwareRecordId}`
          : null,
      };
      tell(null, passed.checks);
      return reply.status(201).send(answer);
    },
  );
}

function registerBootloaderRoute(plugin: FastifyInstance, ctx: AppContext) {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const { db } = ctx;

  /** The bootloader, only to a holder of a live grant for this car and firmware (header `x-flash-grant` or `?grant=`); reading does not use the grant. */
  app.get(
    `${VEHICLES}/:id/read-bootloader/:x`,
    { config: { media: bytesAnswer() }, schema: { params: bootloaderParams, querystring: bootloaderQuery } },
    async (request, reply) => {
      const caller = callerOf(request);
      const { id, x } = request.params;
      const { vehicle } = await vehicleFor(db, id, caller);
      const header = request.headers["x-flash-grant"];
      const token = (typeof header === "string" ? header : undefined) ?? request.query.grant;
      if (!token)
        throw badRequest(
          "Missing grant",
          "send the flash grant's token in the x-flash-grant header or the grant query parameter",
          [{ path: "grant", message: "required" }],
        );
      const grant = await grantOfToken(db, ctx.secrets, token, vehicle.id, { allowUsed: true });
      const record = await flashingSupportOf(db, x);
      if (!record || record.firmwareId !== grant.firmwareId) throw notFound(`Flashing support ${x} for this grant`);
      if (!record.bootloaderSha256) throw notFound(`A bootloader for ${record.firmwareId}`);
      const body = await ctx.blobs.stream(record.bootloaderSha256);
      return reply
        .header("content-type", "application/octet-stream")
        .header(
          "content-disposition",
          `attachment; filename="${(record.bootloaderName ?? `${record.firmwareId}-bootloader.bin`).replace(/["\\\r\n]/g, "_")}"`,
        )
        .header("x-content-sha256", record.bootloaderSha256)
        .send(body);
    },
  );
}
