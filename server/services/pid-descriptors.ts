/**
 * PID descriptors' own work beyond the catalogue's CRUD: the variable checks of a write, the CSV
 * import (checked as PUT would, written in one transaction, upserting by variable) and the export.
 */
import { eq, type SQL } from "drizzle-orm";
import type { ParsedRow, PidCsvFormat } from "../../domain/catalogue/pid-csv";
import { validateExpression } from "../../domain/expression";
import type { Db, Tx } from "../db/handle";
import { computedDescriptors, pidDescriptors } from "../db/schema";
import { type AuditActor, writeAudit } from "./audit";
import { invalid } from "./errors";
import { expressionNames, knownChannelVariables, lockFirmwareIds } from "./firmware-support/references";

/** The stored variable of a PID descriptor. */
export async function pidVariableOf(tx: Tx, id: string): Promise<string> {
  const [current] = await tx
    .select({ variable: pidDescriptors.variable })
    .from(pidDescriptors)
    .where(eq(pidDescriptors.id, id));
  return current.variable;
}

/** Whether a computed descriptor has this variable. */
export async function isComputedVariable(tx: Tx, variable: string): Promise<boolean> {
  const [computed] = await tx
    .select({ id: computedDescriptors.id })
    .from(computedDescriptors)
    .where(eq(computedDescriptors.variable, variable));
  return computed !== undefined;
}

export interface PidImportOptions {
  source?: "obd" | "uds" | "ram";
  firmwareIds: string[];
  dryRun: boolean;
  skipInvalid: boolean;
}

/** Adds to computed rows the errors of expressions that read a channel neither stored nor in the file. */
async function checkExpressions(tx: Tx, rows: ParsedRow[], firmwareIds: string[]) {
  // Computed rows may read channels of this file as well as stored ones.
  const fileVariables = rows.flatMap((row) =>
    row.kind === "pid" && row.errors.length === 0 ? [row.value.variable] : [],
  );
  const computedNames = rows.flatMap((row) => (row.kind === "computed" && row.names ? row.names : []));
  const stored = await knownChannelVariables(tx, computedNames);
  const available = new Set([
    ...fileVariables,
    ...stored,
    ...rows.flatMap((row) => (row.kind === "computed" ? [row.value.variable] : [])),
  ]);
  if (firmwareIds.length) await lockFirmwareIds(tx, firmwareIds);
  for (const row of rows) {
    if (row.kind !== "computed" || row.errors.length) continue;
    const check = validateExpression(
      row.value.expression,
      [...available].filter((v) => v !== row.value.variable),
    );
    if (!check.ok)
      row.errors.push({ field: "expression", message: check.error.message, position: check.error.position });
  }
}

/** Writes the rows without errors, each created or replaced by variable; answers the variables written. */
async function writeRows(tx: Tx, rows: ParsedRow[]): Promise<string[]> {
  const variables: string[] = [];
  for (const row of rows) {
    if (row.errors.length) continue;
    if (row.kind === "pid") {
      const { variable, ...rest } = row.value;
      await tx
        .insert(pidDescriptors)
        .values(row.value)
        .onConflictDoUpdate({ target: pidDescriptors.variable, set: { ...rest, updatedAt: new Date() } });
    } else {
      const names = expressionNames(row.value.expression);
      const variables = "names" in names ? [...names.names] : [];
      const { variable, ...rest } = row.value;
      await tx
        .insert(computedDescriptors)
        .values({ ...row.value, variables })
        .onConflictDoUpdate({
          target: computedDescriptors.variable,
          set: { ...rest, variables, updatedAt: new Date() },
        });
    }
    variables.push(row.value.variable);
  }
  return variables;
}

/**
 * Checks the parsed rows and, unless a dry run, writes them in one transaction (refused when any row
 * has errors, unless skipInvalid), with one audit row for the import. Answers the preview, and the
 * number imported when written.
 */
export async function importPidDescriptors(
  db: Db,
  actor: AuditActor,
  parsed: { format: PidCsvFormat; rows: ParsedRow[] },
  options: PidImportOptions,
) {
  return db.transaction(async (tx) => {
    const rows = parsed.rows;
    await checkExpressions(tx, rows, options.firmwareIds);
    const preview = {
      format: parsed.format,
      rows: rows.map(({ names: _names, ...row }) => row),
      valid: rows.filter((row) => row.errors.length === 0).length,
      invalid: rows.filter((row) => row.errors.length > 0).length,
    };
    if (options.dryRun) return preview;
    if (preview.invalid && !options.skipInvalid) {
      throw invalid(
        "Rows with errors",
        `${preview.invalid} row(s) have errors; fix them or import with skipInvalid`,
        preview,
      );
    }
    const variables = await writeRows(tx, rows);
    const imported = variables.length;
    // One row for the import (each row is created or replaced by variable): what was written.
    await writeAudit(tx, actor, {
      action: "pid-descriptor.imported",
      targetType: "pid-descriptor",
      targetId: `import:${parsed.format}`,
      after: {
        format: parsed.format,
        source: options.source,
        firmwareIds: options.firmwareIds,
        imported,
        variables,
      },
    });
    return { ...preview, imported };
  });
}

/** The descriptors a list query selects, and (for VW_Flash, which carries them) every computed one. */
export async function pidDescriptorsForExport(
  db: Db,
  where: SQL | undefined,
  orderBy: SQL[],
  withComputed: boolean,
  limit: number,
) {
  const rows = await db
    .select()
    .from(pidDescriptors)
    .where(where)
    .orderBy(...orderBy)
    .limit(limit);
  const computed = withComputed
    ? await db.select().from(computedDescriptors).orderBy(computedDescriptors.name).limit(limit)
    : [];
  return { rows, computed };
}
