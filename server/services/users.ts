import { sql } from "drizzle-orm";
import type { Db } from "../db/connection";
import { users } from "../db/schema";
import type { VerifiedCaller } from "./identity";

export interface UserMirror {
  /** Keeps our users row in step with the identity token: role and email change there first. */
  mirror(caller: VerifiedCaller): Promise<void>;
  /** Forget what was mirrored, so the next request writes again (after we change a role ourselves). */
  forget(uid: string): void;
}

/** One upsert per change of a user's email or role, not one per request. */
export function createUserMirror(db: Db): UserMirror {
  const mirrored = new Map<string, string>();
  return {
    async mirror(caller) {
      const fingerprint = `${caller.email}|${caller.role}`;
      if (mirrored.get(caller.uid) === fingerprint) return;
      await db
        .insert(users)
        .values({ uid: caller.uid, email: caller.email, role: caller.role, lastSeenAt: new Date() })
        .onConflictDoUpdate({
          target: users.uid,
          set: { email: caller.email, role: caller.role, lastSeenAt: new Date(), updatedAt: sql`now()` },
        });
      mirrored.set(caller.uid, fingerprint);
    },
    forget: (uid) => mirrored.delete(uid),
  };
}
