/**
 * Layouts of the log chart a user keeps under a name per logger: listed, saved, renamed or given
 * new panes, and removed, by their owner only. Channel ids are not checked against a log: a layout
 * serves every log of its logger, and a log without some of its channels shows the others.
 */
import { and, asc, eq } from "drizzle-orm";
import type { DataLogLayout, DataLogLayoutInput, DataLogLayoutPatch } from "../../contracts/data-log-layouts";
import { FORMAT_IDS } from "../../domain/logs";
import type { Db } from "../db/handle";
import { dataLogLayouts } from "../db/schema";
import { breaksUnique, conflict, invalidFields, notFound } from "./errors";
import type { VerifiedCaller } from "./identity";

type LayoutRow = typeof dataLogLayouts.$inferSelect;

const NAME_TAKEN = "data_log_layouts_owner_format_name_key";

const layoutOf = (row: LayoutRow): DataLogLayout => ({
  id: row.id,
  format: row.format,
  name: row.name,
  panes: row.panes,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** A channel named twice in one pane is drawn once. */
const distinct = (panes: string[][]) => panes.map((pane) => [...new Set(pane)]);

function checkFormat(format: string) {
  if (!(FORMAT_IDS as readonly string[]).includes(format))
    throw invalidFields("body", [{ path: "format", message: `"${format}" is not a logger's format id` }]);
}

/** Two layouts of one logger may not share a name, whatever its case. */
const nameTaken =
  (name: string) =>
  (error: unknown): never => {
    if (breaksUnique(error, NAME_TAKEN))
      throw conflict(`You already have a layout named "${name}" for this logger`, [
        { path: "name", message: "already used by another of your layouts for this logger" },
      ]);
    throw error;
  };

/** The caller's layouts, of one logger when `format` is given, by logger and name. */
export async function layoutsOf(db: Db, caller: VerifiedCaller, format?: string): Promise<DataLogLayout[]> {
  const rows = await db
    .select()
    .from(dataLogLayouts)
    .where(and(eq(dataLogLayouts.ownerUid, caller.uid), format ? eq(dataLogLayouts.format, format) : undefined))
    .orderBy(asc(dataLogLayouts.format), asc(dataLogLayouts.name));
  return rows.map(layoutOf);
}

export async function addLayout(db: Db, caller: VerifiedCaller, input: DataLogLayoutInput): Promise<DataLogLayout> {
  checkFormat(input.format);
  const [row] = await db
    .insert(dataLogLayouts)
    .values({ ownerUid: caller.uid, format: input.format, name: input.name, panes: distinct(input.panes) })
    .returning()
    .catch(nameTaken(input.name));
  return layoutOf(row);
}

export async function updateLayout(
  db: Db,
  caller: VerifiedCaller,
  id: string,
  patch: DataLogLayoutPatch,
): Promise<DataLogLayout> {
  const [row] = await db
    .update(dataLogLayouts)
    .set({
      ...(patch.name !== undefined && { name: patch.name }),
      ...(patch.panes !== undefined && { panes: distinct(patch.panes) }),
      updatedAt: new Date(),
    })
    .where(and(eq(dataLogLayouts.id, id), eq(dataLogLayouts.ownerUid, caller.uid)))
    .returning()
    .catch(nameTaken(patch.name ?? ""));
  if (!row) throw notFound(`Layout ${id}`);
  return layoutOf(row);
}

export async function deleteLayout(db: Db, caller: VerifiedCaller, id: string): Promise<void> {
  const deleted = await db
    .delete(dataLogLayouts)
    .where(and(eq(dataLogLayouts.id, id), eq(dataLogLayouts.ownerUid, caller.uid)))
    .returning({ id: dataLogLayouts.id });
  if (deleted.length === 0) throw notFound(`Layout ${id}`);
}
