import { describe, expect, it } from "vitest";
import {
  INT4_MAX,
  ListQueryError,
  type ListValueType,
  listValue,
  parseListQuery,
  serializeListQuery,
  storable,
} from "../../../contracts/list-query";

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
      const query = {
        page: 3,
        pageSize: 20,
        sort: [{ field: "title", order: "asc" as const }],
        filters: [],
        cursor: { direction, token: "eyJzIjoidGl0bGUiLCJ2IjpbXX0" },
      };
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

  const types: Record<string, ListValueType> = {
    status: "text",
    price: "integer",
    firmwareId: "uuid",
    deletedAt: "timestamp",
  };
  const refusal = (raw: string) => {
    try {
      parseListQuery(new URLSearchParams(raw), allowed, types);
    } catch (error) {
      if (error instanceof ListQueryError) return { parameter: error.parameter, message: error.message };
      throw error;
    }
    return null;
  };

  it.each([
    ["q=a%00b", "q", "NUL"],
    ["status[eq]=%00", "status[eq]", "NUL"],
    ["status[in]=a,b%00", "status[in]", "NUL"],
    ["price[gt]=1.5", "price[gt]", "whole number from -2147483648 to 2147483647"],
    ["price[gt]=2147483648", "price[gt]", "whole number"],
    ["price[gt]=1e308", "price[gt]", "whole number"],
    ["price[between]=1,NaN", "price[between]", "whole number"],
    ["firmwareId[eq]=not-a-uuid", "firmwareId[eq]", "UUID"],
    ["deletedAt[gt]=0000-01-01T00:00:00Z", "deletedAt[gt]", "0001 to 9999"],
    ["deletedAt[gt]=-200000-01-01T00:00:00Z", "deletedAt[gt]", "ISO 8601"],
    ["deletedAt[lt]=2021-02-29", "deletedAt[lt]", "calendar"],
  ])("refuses %s by the field's type, naming %s", (raw, parameter, words) => {
    const refused = refusal(raw);
    expect(refused?.parameter).toBe(parameter);
    expect(refused?.message).toContain(words);
  });

  it("takes the values the field's type holds, and refuses NUL in a field whose type it is not told", () => {
    const query = parseListQuery(
      new URLSearchParams(
        "price[between]=-2147483648,2147483647&firmwareId[in]=00000000-0000-0000-0000-00000000000A&deletedAt[gte]=2024-02-29T23:59:59.5%2B01:00&status[eq]=é,\\",
      ),
      allowed,
      types,
    );
    expect(query.filters.map((f) => f.value)).toEqual([
      ["-2147483648", "2147483647"],
      ["00000000-0000-0000-0000-00000000000A"],
      "2024-02-29T23:59:59.5+01:00",
      "é,\\",
    ]);
    expect(() => parseListQuery(new URLSearchParams("status[eq]=%00"), allowed)).toThrow(ListQueryError);
  });

  it.each<[ListValueType, string, boolean]>([
    ["smallint", "32767", true],
    ["smallint", "32768", false],
    ["integer", String(INT4_MAX), true],
    ["integer", "1e3", true],
    ["integer", "0x10", false],
    ["integer", " 1", false],
    ["bigint", "9007199254740991", true],
    ["bigint", "9223372036854775807", false],
    ["real", "3.4e38", true],
    ["real", "3.5e38", false],
    ["real", "1e-50", false],
    ["real", "-0", true],
    ["double", "1e308", true],
    ["double", "1e309", false],
    ["double", "Infinity", false],
    ["double", "1e-320", false],
    ["timestamp", "0001-01-01T00:00:00Z", true],
    ["timestamp", "0001-01-01T00:30:00+01:00", false],
    ["timestamp", "9999-12-31T23:59:59.999Z", true],
    ["timestamp", "10000-01-01", false],
    ["timestamp", "2024-01-01T24:00:00Z", false],
    ["timestamp", "2024-01-01", true],
    ["timestamp", "1", false],
    ["boolean", "true", true],
    ["boolean", "TRUE", false],
    ["uuid", "{00000000-0000-0000-0000-000000000000}", false],
    ["text", "a\u0000", false],
    ["text", "😀", true],
  ])("a %s column takes %j: %s", (type, raw, fits) => {
    expect("value" in listValue(type, raw)).toBe(fits);
    expect(storable(type, raw)).toBe(fits);
  });
});
