/** The app's two blob stores: the files of records, and data logs apart. */
import path from "node:path";
import type { Config } from "../config";
import type { BlobStore } from "./blob-store";
import { DiskBlobStore } from "./disk-blob-store";

export interface BlobStores {
  blobs: BlobStore;
  dataLogBlobs: BlobStore;
  /** Lets go of what the stores hold open. */
  close(): void;
}

export function openBlobStores(config: Pick<Config, "dataDir">): BlobStores {
  return {
    blobs: new DiskBlobStore(config.dataDir),
    dataLogBlobs: new DiskBlobStore(path.join(config.dataDir, "data-logs")),
    close() {},
  };
}
