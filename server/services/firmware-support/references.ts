/**
 * Keeping the catalogue's references honest (see server/db/schema/firmware-support.ts):
 * firmware ids and descriptor ids live in arrays, so the checks a foreign key
 * would make are made here, under the same row locks.
 */
import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { ExpressionIssue } from "../../../contracts/firmware-support";
import { compileExpression, ExpressionError } from "../../../domain/expression";
import type { Tx } from "../../db/handle";
import {
  computedDescriptors,
  firmwareSecrets,
  firmwareSupport,
  obdFunctions,
  pidDescriptors,
  pidTemplates,
  supportedVehicles,
  supportRequests,
  tuneFilePatches,
  tuneFiles,
  userVehicles,
} from "../../db/schema";
import { invalid } from "../errors";

/** Something that still refers to a record, named so that an admin can find it. */
export interface Referrer {
  resource: string;
  id: string;
  label: string;
}

const REFERRER_LIMIT = 20;

/** Runs queries one after another and gives their results in order. */
async function sequence<const T extends readonly (() => Promise<unknown>)[]>(
  queries: T,
): Promise<{ [K in keyof T]: Awaited<ReturnType<T[K]>> }> {
  const results: unknown[] = [];
  for (const query of queries) results.push(await query());
  return results as { [K in keyof T]: Awaited<ReturnType<T[K]>> };
}

/**
 * Refuses ids that name no firmware record, and holds the named rows with
 * FOR KEY SHARE until the transaction ends, as a foreign key would: a delete
 * of one of them waits for us and then sees our reference.
 */
export async function lockFirmwareIds(tx: Tx, ids: readonly string[], path = "firmwareIds"): Promise<void> {
  if (ids.length === 0) return;
  const found = await tx
    .select({ firmwareId: firmwareSupport.firmwareId })
    .from(firmwareSupport)
    .where(inArray(firmwareSupport.firmwareId, [...ids]))
    .for("key share");
  const known = new Set(found.map((row) => row.firmwareId));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length) {
    const message = `no firmware record for ${unknown.join(", ")}`;
    throw invalid("Invalid body", message, [{ path, message }]);
  }
}

const arrayHolds = (column: SQL | unknown, value: string, type: "text" | "uuid" = "text") =>
  sql`${column} @> ARRAY[${value}]::${sql.raw(type)}[]`;

/**
 * Everything that names a firmware id, for the 409 of a delete. One query after
 * another: a transaction is one connection, and pg queues parallel queries on it anyway.
 */
export async function firmwareReferrers(tx: Tx, firmwareId: string): Promise<Referrer[]> {
  const [vehicles, functions, descriptors, templates, secrets, requests, tunes, patches, cars] = await sequence([
    () =>
      tx
        .select({
          id: supportedVehicles.id,
          make: supportedVehicles.make,
          model: supportedVehicles.model,
          engine: supportedVehicles.engine,
        })
        .from(supportedVehicles)
        .where(arrayHolds(supportedVehicles.firmwareIds, firmwareId))
        .limit(REFERRER_LIMIT),
    () =>
      tx
        .select({ id: obdFunctions.id, name: obdFunctions.name })
        .from(obdFunctions)
        .where(arrayHolds(obdFunctions.firmwareIds, firmwareId))
        .limit(REFERRER_LIMIT),
    () =>
      tx
        .select({ id: pidDescriptors.id, name: pidDescriptors.name })
        .from(pidDescriptors)
        .where(arrayHolds(pidDescriptors.firmwareIds, firmwareId))
        .limit(REFERRER_LIMIT),
    () =>
      tx
        .select({ id: pidTemplates.id, name: pidTemplates.name })
        .from(pidTemplates)
        .where(arrayHolds(pidTemplates.firmwareIds, firmwareId))
        .limit(REFERRER_LIMIT),
    () =>
      tx
        .select({ id: firmwareSecrets.id, name: firmwareSecrets.label })
        .from(firmwareSecrets)
        .where(eq(firmwareSecrets.firmwareId, firmwareId))
        .limit(REFERRER_LIMIT),
    () =>
      tx
        .select({ id: supportRequests.id, name: supportRequests.vin })
        .from(supportRequests)
        .where(eq(supportRequests.firmwareId, firmwareId))
        .limit(REFERRER_LIMIT),
    // Tune files, patches and vehicles are identified by this firmware: removing it would orphan them.
    () =>
      tx
        .select({ id: tuneFiles.id, name: tuneFiles.title })
        .from(tuneFiles)
        .where(eq(tuneFiles.firmwareId, firmwareId))
        .limit(REFERRER_LIMIT),
    () =>
      tx
        .select({ id: tuneFilePatches.id, name: tuneFilePatches.title })
        .from(tuneFilePatches)
        .where(arrayHolds(tuneFilePatches.firmwareIds, firmwareId))
        .limit(REFERRER_LIMIT),
    () =>
      tx
        .select({ id: userVehicles.id, name: userVehicles.name })
        .from(userVehicles)
        .where(eq(userVehicles.firmwareId, firmwareId))
        .limit(REFERRER_LIMIT),
  ]);
  return [
    ...vehicles.map((v) => ({ resource: "supported vehicle", id: v.id, label: `${v.make} ${v.model} ${v.engine}` })),
    ...functions.map((f) => ({ resource: "OBD function", id: f.id, label: f.name })),
    ...descriptors.map((d) => ({ resource: "PID descriptor", id: d.id, label: d.name })),
    ...templates.map((t) => ({ resource: "PID template", id: t.id, label: t.name })),
    ...secrets.map((s) => ({ resource: "stored password", id: s.id, label: s.name })),
    ...requests.map((r) => ({ resource: "support request", id: r.id, label: r.name })),
    ...tunes.map((t) => ({ resource: "tune file", id: t.id, label: t.name })),
    ...patches.map((p) => ({ resource: "tune-file patch", id: p.id, label: p.name })),
    ...cars.map((v) => ({ resource: "vehicle", id: v.id, label: v.name })),
  ];
}

/** Templates and computed descriptors that use a channel (by descriptor id and by variable). */
export async function channelReferrers(tx: Tx, channel: { id?: string; variable: string }): Promise<Referrer[]> {
  const [templates, computed] = await sequence([
    () =>
      channel.id
        ? tx
            .select({ id: pidTemplates.id, name: pidTemplates.name })
            .from(pidTemplates)
            .where(arrayHolds(pidTemplates.descriptorIds, channel.id, "uuid"))
            .limit(REFERRER_LIMIT)
        : Promise.resolve([]),
    () =>
      tx
        .select({ id: computedDescriptors.id, name: computedDescriptors.name })
        .from(computedDescriptors)
        .where(arrayHolds(computedDescriptors.variables, channel.variable))
        .limit(REFERRER_LIMIT),
  ]);
  return [
    ...templates.map((t) => ({ resource: "PID template", id: t.id, label: t.name })),
    ...computed.map((c) => ({ resource: "computed descriptor", id: c.id, label: c.name })),
  ];
}

/** Locks the descriptors a template lists; unknown ids are a 400 naming them. */
export async function lockDescriptorIds(tx: Tx, ids: readonly string[]): Promise<void> {
  const found = await tx
    .select({ id: pidDescriptors.id })
    .from(pidDescriptors)
    .where(inArray(pidDescriptors.id, [...ids]))
    .for("key share");
  const known = new Set(found.map((row) => row.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length) {
    const message = `no PID descriptor ${unknown.join(", ")}`;
    throw invalid("Invalid body", message, [{ path: "descriptorIds", message }]);
  }
}

/** Channel variables (PID and computed descriptors) among `names`, locked against deletion. */
export async function knownChannelVariables(tx: Tx, names: readonly string[], except?: string): Promise<string[]> {
  if (names.length === 0) return [];
  const [pids, computed] = await sequence([
    () =>
      tx
        .select({ variable: pidDescriptors.variable })
        .from(pidDescriptors)
        .where(inArray(pidDescriptors.variable, [...names]))
        .for("key share"),
    () =>
      tx
        .select({ variable: computedDescriptors.variable })
        .from(computedDescriptors)
        .where(
          and(
            inArray(computedDescriptors.variable, [...names]),
            except ? sql`${computedDescriptors.id} <> ${except}` : undefined,
          ),
        )
        .for("key share"),
  ]);
  return [...pids, ...computed].map((row) => row.variable);
}

/** Identifiers an expression reads (functions excluded); a syntax error comes back as the issue, with its position. */
export function expressionNames(expression: string): { names: readonly string[] } | { issue: ExpressionIssue } {
  try {
    // Without a variable list the evaluator accepts any identifier and reports those it reads.
    return { names: compileExpression(expression).variables };
  } catch (error) {
    if (error instanceof ExpressionError) return { issue: { path: "expression", ...error.toJSON() } };
    throw error;
  }
}
