import type { Config } from "./config";
import type { Database, Db } from "./db/connection";
import type { BlobStore } from "./services/blobs";
import type { Identity } from "./services/identity";
import type { JobRegistry } from "./services/jobs";
import type { UserMirror } from "./services/users";

/** What route plugins need, built once by buildApp. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  identity: Identity;
  blobs: BlobStore;
  users: UserMirror;
  jobs: JobRegistry;
  startedAt: Date;
}
