/** What the tuning-request routes share: the queue's path and what its lists may filter and sort. */
import { sql } from "drizzle-orm";
import { apiPaths } from "../../../contracts/api-paths";
import { tuningRequestList } from "../../../contracts/tuning-requests";
import { tuningRequests } from "../../db/schema";
import type { ListSpec } from "../../http/list";

export const REQUESTS = `/${apiPaths["tuning-requests"].list}`;

export const listSpec: ListSpec = {
  table: tuningRequests,
  id: tuningRequests.id,
  allowed: tuningRequestList,
  fields: {
    state: { column: tuningRequests.state, kind: "text" },
    vehicleId: { column: tuningRequests.vehicleId, kind: "uuid" },
    dealerUid: { column: tuningRequests.dealerUid, kind: "text" },
    customerUid: { column: tuningRequests.customerUid, kind: "text" },
    createdAt: { column: tuningRequests.createdAt, kind: "timestamp" },
    updatedAt: { column: tuningRequests.updatedAt, kind: "timestamp" },
    lastCustomerActionAt: { column: tuningRequests.lastCustomerActionAt, kind: "timestamp" },
    dueAt: { column: tuningRequests.dueAt, kind: "timestamp" },
  },
  search: sql`('TR-' || ${tuningRequests.number} || ' ' || ${tuningRequests.vehicleName} || ' ' || coalesce(${tuningRequests.vin}, '') || ' ' || ${tuningRequests.firmwareId} || ' ' || coalesce(${tuningRequests.assignee}, ''))`,
  defaultSort: [{ field: "updatedAt", order: "desc" }],
};
