import { apiPaths } from "../../../contracts/api-paths";

/** `/user-vehicles`: the collection the customer's and the admin's vehicle lists read. */
export const VEHICLES = `/${apiPaths["user-vehicles"].list}`;
