/**
 * Repositories: a dealer's private collections of tunes, and who may reach each one. A tune with
 * a repository is offered only to that repository's members (services/tune-offers.ts), so a
 * repository holding tunes cannot be deleted (that would put them on open sale): its tunes are
 * moved out or removed first.
 */
import { boolean, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

export const tuneRepositories = pgTable(
  "tune_repositories",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    dealerUid: text("dealer_uid")
      .notNull()
      .references(() => users.uid),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** Members licence its tunes without paying. */
    freeForMembers: boolean("free_for_members").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("tune_repositories_dealer_name_key").on(t.dealerUid, t.name)],
);

export const repositoryAccess = pgTable(
  "repository_access",
  {
    repositoryId: uuid("repository_id")
      .notNull()
      .references(() => tuneRepositories.id, { onDelete: "cascade" }),
    userUid: text("user_uid")
      .notNull()
      .references(() => users.uid, { onDelete: "cascade" }),
    grantedBy: text("granted_by").notNull(),
    grantedAt: timestamp("granted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.repositoryId, t.userUid] }), index("repository_access_user_idx").on(t.userUid)],
);
