import type { Redis } from "ioredis";
import type { AccountStreamEvent } from "../contracts/account";
import type { Config } from "./config";
import type { Database, Db } from "./db/connection";
import type { BlobStore } from "./services/blob-store";
import type { CatalogueCache } from "./services/firmware-support/cache";
import type { Identity } from "./services/identity";
import type { LiveEventBus } from "./services/live-events";
import type { MailService } from "./services/mail/service";
import type { NotificationCenter } from "./services/notifications";
import type { PaymentProvider } from "./services/payments/provider";
import type { SandboxProvider } from "./services/payments/sandbox";
import type { JobQueue } from "./services/queue";
import type { SecretBox } from "./services/secret-box";
import type { Topics } from "./services/topics";
import type { UserMirror } from "./services/users";
import type { VehicleEvents } from "./services/vehicle-events";

/** What route plugins need, built once by buildApp. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  identity: Identity;
  /** The files records hold by SHA-256: on disk under `<dataDir>/blobs`, or in the bucket under `blobs/`. */
  blobs: BlobStore;
  /** Data logs' originals and columnar forms, apart from the other files (`<dataDir>/data-logs/blobs`, or `data-logs/blobs/`). */
  dataLogBlobs: BlobStore;
  users: UserMirror;
  /** Background jobs on the queue (pg-boss on the app's database): services/queue.ts, kinds in services/background-jobs.ts. */
  jobs: JobQueue;
  /** Carries published events to every instance's streams: NOTIFY on PostgreSQL, in process on PGlite. */
  liveEvents: LiveEventBus;
  notifications: NotificationCenter;
  /** Email: `send` hands a composed message (services/mail/messages.ts) to the SMTP server. */
  mail: MailService;
  /** Firmware identities and patches kept while the catalogue does not change. */
  catalogue: CatalogueCache;
  /** Seals stored passwords at rest. */
  secrets: SecretBox;
  /** Flash sessions and their steps as they change, for the vehicle's event stream. */
  vehicleEvents: VehicleEvents;
  /** Tuning requests as they change (a ticket's id → that it changed), for the ticket's event stream. */
  tuningRequestEvents: Topics<{ type: "changed" }>;
  /** A user's account changes (role, disabled, signed out everywhere), for their own account stream. */
  accountEvents: Topics<AccountStreamEvent>;
  /** Redis when REDIS_URL is set: rate limits shared by every instance (server/http/rate-limits.ts). */
  redis: Redis | null;
  /** The card payment provider: Stripe with a key, else the local sandbox. */
  payments: (PaymentProvider & { readonly kind: "stripe" }) | SandboxProvider;
  startedAt: Date;
}
