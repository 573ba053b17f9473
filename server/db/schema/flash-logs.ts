import { index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { userVehicles } from "./data-logs";
import { users } from "./identity";
import { bakedTuneFiles, tuneFiles } from "./tune-files";

/**
 * One row per flash the app reports. The tune's title and version are copied:
 * a flash log is the car's history and outlives the bake and the tune.
 */
export const flashLogs = pgTable(
  "flash_logs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    vehicleId: uuid("vehicle_id")
      .notNull()
      .references(() => userVehicles.id, { onDelete: "cascade" }),
    bakedTuneFileId: uuid("baked_tune_file_id").references(() => bakedTuneFiles.id, { onDelete: "set null" }),
    tuneFileId: uuid("tune_file_id").references(() => tuneFiles.id, { onDelete: "set null" }),
    tuneTitle: text("tune_title"),
    tuneVersion: integer("tune_version"),
    kind: text("kind").$type<"tune" | "stock">().notNull(),
    sha256: text("sha256").notNull(),
    result: text("result").$type<"success" | "failed" | "aborted">().notNull(),
    message: text("message").notNull().default(""),
    durationMs: integer("duration_ms"),
    flashedAt: timestamp("flashed_at", { withTimezone: true }).notNull().defaultNow(),
    reportedBy: text("reported_by")
      .notNull()
      .references(() => users.uid),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("flash_logs_vehicle_flashed_idx").on(table.vehicleId, table.flashedAt.desc(), table.id)],
);
