import { describe, expect, it } from "vitest";
import { ListQueryError, parseListQuery, serializeListQuery } from "../../contracts/list-query";

const allowed = { sort: ["createdAt", "title"], filter: ["status", "price", "firmwareId", "deletedAt"] };

describe("list query", () => {
  it("round-trips paging, sorting, search and filters, commas in values included", () => {
    const query = {
      page: 4,
      pageSize: 50,
      sort: [
        { field: "createdAt", order: "desc" as const },
        { field: "title", order: "asc" as const },
      ],
      q: "golf r",
      filters: [
        { field: "status", operator: "eq" as const, value: "published" },
        { field: "price", operator: "between" as const, value: ["10", "20"] },
        { field: "firmwareId", operator: "in" as const, value: ["A,1", "B\\2"] },
        { field: "deletedAt", operator: "null" as const, value: null },
      ],
    };
    expect(parseListQuery(serializeListQuery(query), allowed)).toEqual(query);
  });

  it("round-trips a keyset cursor in either direction", () => {
    for (const direction of ["after", "before"] as const) {
      const query = { page: 3, pageSize: 20, sort: [{ field: "title", order: "asc" as const }], filters: [], cursor: { direction, token: "eyJzIjoidGl0bGUiLCJ2IjpbXX0" } };
      expect(parseListQuery(serializeListQuery(query), allowed)).toEqual(query);
    }
  });

  it("defaults to the first page of 20", () => {
    expect(parseListQuery(new URLSearchParams(), allowed)).toEqual({ page: 1, pageSize: 20, sort: [], filters: [] });
  });

  it.each([
    ["page=0", "page", "page must be a whole number of at least 1"],
    ["pageSize=500", "pageSize", "pageSize must be at most 200"],
    ["sort=-password", "sort", 'Cannot sort by "password"; sortable: createdAt, title'],
    ["secret[eq]=1", "secret[eq]", 'Cannot filter by "secret"; filterable: status, price, firmwareId, deletedAt'],
    ["status[like]=x", "status[like]", 'Unknown filter operator "like" on "status"'],
    ["price[between]=10", "price[between]", '"price[between]" needs two values: from,to'],
    ["limit=5", "limit", 'Unknown query parameter "limit"'],
    ["after=a&before=b", "before", "Send after or before, not both"],
  ])("refuses %s, naming the parameter", (raw, parameter, message) => {
    let caught: unknown;
    try {
      parseListQuery(new URLSearchParams(raw), allowed);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ListQueryError);
    expect(caught).toMatchObject({ message, parameter });
  });
});
