/** The tune list's fields and search, shared with a dealer's catalogue (routes/dealers.ts). */
import { sql } from "drizzle-orm";
import { tuneFileList } from "../../../contracts/tune-files";
import { tuneFiles } from "../../db/schema";
import type { ListSpec } from "../../http/list";

export const tuneListSpec: ListSpec = {
  table: tuneFiles,
  id: tuneFiles.id,
  allowed: tuneFileList,
  fields: {
    title: { column: tuneFiles.title, kind: "text" },
    firmwareId: { column: tuneFiles.firmwareId, kind: "text" },
    dealerUid: { column: tuneFiles.dealerUid, kind: "text" },
    published: { column: tuneFiles.published, kind: "boolean" },
    priceCents: { column: tuneFiles.priceCents, kind: "number" },
    updatedAt: { column: tuneFiles.updatedAt, kind: "timestamp" },
    createdAt: { column: tuneFiles.createdAt, kind: "timestamp" },
  },
  search: sql`(${tuneFiles.title} || ' ' || ${tuneFiles.description} || ' ' || ${tuneFiles.firmwareId})`,
  defaultSort: [{ field: "updatedAt", order: "desc" }],
};
