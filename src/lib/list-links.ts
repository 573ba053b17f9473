/**
 * Links to a list filtered as given: the query string of a Refine list synced to the URL
 * (`filters[0][field]=status&filters[0][operator]=in&filters[0][value][0]=new…`), so a figure or a
 * section links to exactly the rows it counts.
 */
export function listFilterQuery(field: string, operator: "eq" | "in", value: string | readonly string[]): string {
  const params = new URLSearchParams();
  params.set("filters[0][field]", field);
  params.set("filters[0][operator]", operator);
  if (typeof value === "string") params.set("filters[0][value]", value);
  else
    value.forEach((item, index) => {
      params.set(`filters[0][value][${index}]`, item);
    });
  return `?${params.toString()}`;
}

/** The admin's list of every vehicle, narrowed to one owner's. */
export const userVehiclesOf = (ownerUid: string) => `/admin/user-devices${listFilterQuery("ownerUid", "eq", ownerUid)}`;
