/**
 * Every list route the server declares (`config.list`, read back with declaredLists, so a new
 * list is covered the day it is added), every filter it allows, every operator, with hostile
 * values: NUL characters, fractions and numbers past every integer and float range, dates
 * outside PostgreSQL's calendar, ids that are not UUIDs, long and odd Unicode, escapes, empty
 * values; and the same for `q`, `sort`, paging and cursors. The server must answer 200 or a 400
 * naming the parameter: a 5xx (a value the database refused) or an unnamed refusal fails.
 */
import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FilterOperator, filterOperators } from "../../../contracts/list-query";
import { dealerProfiles, userVehicles } from "../../../server/db/schema";
import { type DeclaredList, declaredLists, fieldType } from "../../../server/http/list";
import {
  bearer,
  bothDatabases,
  createUser,
  type DatabaseKind,
  startTestApp,
  type TestApp,
  type TestUser,
} from "./harness";

/** Values as they go into the URL: most encoded from text, a few written encoded (a lone surrogate cannot be encoded by encodeURIComponent). */
const text = [
  "",
  "\u0000",
  "a\u0000b",
  "%00",
  "1.5",
  "-0.5",
  "2147483647",
  "2147483648",
  "-2147483649",
  "32768",
  "9007199254740993",
  "9223372036854775808",
  "-9223372036854775809",
  "1e308",
  "-1e308",
  "1e309",
  "1e-320",
  "1e-50",
  "3.5e38",
  "NaN",
  "Infinity",
  "-0",
  "0x10",
  " 1",
  "1e3",
  "0000-01-01T00:00:00Z",
  "-200000-01-01T00:00:00Z",
  "+275760-09-13T00:00:00Z",
  "9999-12-31T23:59:59.999+00:00",
  "0001-01-01T00:30:00+01:00",
  "10000-01-01",
  "2021-02-29",
  "2021-13-01",
  "2024-01-01T24:00:00Z",
  "2024-01-01T10:00:00.1234567891Z",
  "not-a-uuid",
  "00000000-0000-0000-0000-000000000000",
  "{00000000-0000-0000-0000-000000000000}",
  "true",
  "TRUE",
  "null",
  "x".repeat(5000),
  "é😀\u202e\ufeff\uffff",
  ",",
  "a,b,c",
  "\\",
  "a\\,b",
  "%_",
  "' OR '1'='1",
  "$1",
];
const encoded = ["%FF%FE", "%ED%A0%80", "%C0%80", "a%2Cb"];
const HOSTILE = [...text.map((value) => encodeURIComponent(value)), ...encoded];

const SAMPLE_STRIDE = 10;

const cursorOf = (signature: string, values: unknown[]) =>
  Buffer.from(JSON.stringify({ s: signature, v: values })).toString("base64url");

/**
 * The fuzz for one database. Each database has a test file of its own calling this, so the two
 * run in Vitest's two workers at once; they still share the hostile values (`ours`).
 */
export function describeListFuzz(kind: DatabaseKind): void {
  describe(`list routes under hostile query values on ${kind}`, () => {
    let test: TestApp;
    let admin: TestUser;
    let dealer: TestUser;
    let customer: TestUser;
    let vehicleId: string;
    let dealerProfileId: string;
    let lists: readonly DeclaredList[];

    beforeAll(async () => {
      test = await startTestApp(kind);
      [admin, dealer, customer] = await Promise.all([
        createUser(test, "admin"),
        createUser(test, "dealer"),
        createUser(test, "customer"),
      ]);
      // Users reach the mirror on their first request; the vehicle row needs its owner there.
      await Promise.all(
        [admin, dealer, customer].map((user) =>
          test.app.inject({ method: "GET", url: "/api/v1/tune-files", headers: bearer(user.token) }),
        ),
      );
      [{ id: vehicleId }] = await test.app.ctx.db
        .insert(userVehicles)
        .values({
          ownerUid: customer.uid,
          name: "Fuzz hatch",
          vin: `WFUZZ${randomBytes(6).toString("hex").toUpperCase()}`,
        })
        .returning();
      [{ id: dealerProfileId }] = await test.app.ctx.db
        .insert(dealerProfiles)
        .values({ userUid: dealer.uid, businessName: "Fuzz Tuning", status: "approved" })
        .returning();
      lists = declaredLists(test.app);
    });
    afterAll(async () => test?.close());

    /**
     * Both databases are PostgreSQL's parser and types, so they share the hostile values instead of
     * each taking them all: the value at `i` is this database's when `ours(i)` (every other one).
     */
    const ours = (i: number) => i % bothDatabases.length === bothDatabases.indexOf(kind);

    /** Who calls a list: its role, or a customer and an admin when any signed-in user may. */
    const callersOf = (list: DeclaredList) =>
      list.role === "admin" ? [admin] : list.role === "dealer" ? [dealer, admin] : [customer, admin];
    const pathOf = (list: DeclaredList, user: TestUser) =>
      list.url.replace(/:(\w+)/g, (_, name: string) => {
        if (name !== "id") throw new Error(`${list.url}: the fuzz test has no value for :${name}`);
        if (list.url.startsWith("/api/v1/users/")) return user.uid;
        return list.url.startsWith("/api/v1/dealers/") ? dealerProfileId : vehicleId;
      });

    /** Sends every query to every caller, a few at a time; answers what was not a 200 or a 400 naming its parameter. */
    async function probe(
      list: DeclaredList,
      queries: Array<{ query: string; parameter: string }>,
      users = callersOf(list),
    ): Promise<string[]> {
      const failures: string[] = [];
      const jobs = users.flatMap((user) => queries.map((q) => ({ user, ...q })));
      for (let i = 0; i < jobs.length; i += 32) {
        await Promise.all(
          jobs.slice(i, i + 32).map(async ({ user, query, parameter }) => {
            const url = `${pathOf(list, user)}?${query}`;
            const response = await test.app.inject({ method: "GET", url, headers: bearer(user.token) });
            const shown = `${response.statusCode} GET ${url.slice(0, 200)}`;
            if (response.statusCode === 200) return;
            if (response.statusCode !== 400) return void failures.push(`${shown}: ${response.body.slice(0, 200)}`);
            const named = (response.json() as { data?: Array<{ path?: string }> }).data?.[0]?.path;
            if (named !== parameter) failures.push(`${shown}: names ${JSON.stringify(named)}, not ${parameter}`);
          }),
        );
      }
      return failures;
    }

    it("declares every list with filters and sorts its spec knows, typed as their columns are", () => {
      const urls = lists.map((list) => list.url);
      // The lists the outside probe hit, at least; a list added later joins the fuzzing by itself.
      for (const url of [
        "/api/v1/data-logs",
        "/api/v1/tune-files",
        "/api/v1/tune-file-patches",
        "/api/v1/firmware-support",
        "/api/v1/user-vehicles/:id/flash-logs",
        "/api/v1/users/:id/notifications",
      ]) {
        expect(urls).toContain(url);
      }
      expect(lists.length).toBeGreaterThanOrEqual(15);
      for (const { url, spec } of lists) {
        for (const name of [...spec.allowed.filter, ...spec.allowed.sort])
          expect(spec.fields[name], `${url}: ${name} is allowed but not declared`).toBeDefined();
        for (const [name, field] of Object.entries(spec.fields)) {
          const type = fieldType(field);
          expect(field.kind, `${url}: ${name} is declared ${field.kind} but its column holds ${type.kind}`).toBe(
            type.kind,
          );
          if (type.kind === "array")
            expect(field.arrayType ?? "text", `${url}: ${name}'s elements`).toBe(type.arrayType);
        }
      }
    });

    /**
     * The filter queries of a list. A value is checked by its field's type whatever the operator,
     * so every field takes every hostile value once, each with the next operator in turn (shifted
     * per field, so across fields every operator meets every value); `null` and `nnull` take no
     * value and get the empty and NUL ones. A customer, whose scope is one more condition, takes
     * every SAMPLE_STRIDE-th value. The two databases share the values (`ours`).
     */
    function filterQueries(list: DeclaredList, full: boolean): Array<{ query: string; parameter: string }> {
      const queries: Array<{ query: string; parameter: string }> = [];
      const valued = (filterOperators as readonly FilterOperator[]).filter((op) => op !== "null" && op !== "nnull");
      list.spec.allowed.filter.forEach((field, f) => {
        const push = (operator: FilterOperator, value: string) => {
          const parameter = `${field}[${operator}]`;
          queries.push({ query: `${encodeURIComponent(parameter)}=${value}`, parameter });
        };
        HOSTILE.forEach((value, i) => {
          if (ours(i) && (full || i % SAMPLE_STRIDE === f % SAMPLE_STRIDE))
            push(valued[(i + f) % valued.length], value);
        });
        for (const [i, operator] of (["null", "nnull"] as const).entries()) push(operator, ours(i + f) ? "" : "%00");
      });
      return queries;
    }

    it("answers every filter, operator and hostile value with a 200 or a 400 naming the parameter", async () => {
      const started = Date.now();
      const counts = { routes: lists.length, fields: 0, requests: 0 };
      const failures: string[] = [];
      for (const list of lists) {
        counts.fields += list.spec.allowed.filter.length;
        // The admin takes the whole matrix; a customer, on the lists open to them, the sampled part (their scope is one more condition).
        for (const [user, full] of callersOf(list).map((user) => [user, user === admin] as const)) {
          const queries = filterQueries(list, full);
          counts.requests += queries.length;
          failures.push(...(await probe(list, queries, [user])));
        }
      }
      console.info(
        `list fuzz on ${kind}: ${counts.routes} routes, ${counts.fields} filters, ${HOSTILE.length} values, ${counts.requests} requests in ${Date.now() - started} ms`,
      );
      expect(failures).toEqual([]);
    }, 300_000);

    /**
     * Generated values beyond the fixed ones: any text (wide Unicode, control characters), any
     * double or big integer written out, any date's ISO form, UUIDs, on a filter, operator and
     * list drawn at random. fast-check prints the seed and the smallest failing query.
     */
    it("answers generated filter values with a 200 or a 400 naming the parameter", async () => {
      const targets = lists.flatMap((list) => list.spec.allowed.filter.map((field) => ({ list, field })));
      const value = fc.oneof(
        fc.string({ unit: "binary", maxLength: 40 }),
        fc.string({ unit: "grapheme", maxLength: 40 }),
        fc.double().map(String),
        fc.bigInt().map(String),
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        fc.uuid().map((u) => (kind === "pglite" ? u : u.toUpperCase())),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...targets),
          fc.constantFrom(...(filterOperators as readonly FilterOperator[])),
          value,
          async ({ list, field }, operator, raw) => {
            const parameter = `${field}[${operator}]`;
            const query = `${encodeURIComponent(parameter)}=${encodeURIComponent(raw.replace(/[\uD800-\uDFFF]/gu, "\uFFFD"))}`;
            expect(await probe(list, [{ query, parameter }], [admin])).toEqual([]);
          },
        ),
        { numRuns: 150 },
      );
    }, 300_000);

    it("answers hostile search, sort, paging and cursors with a 200 or a 400 naming the parameter", async () => {
      const started = Date.now();
      let requests = 0;
      const failures: string[] = [];
      for (const list of lists) {
        const { spec } = list;
        const queries: Array<{ query: string; parameter: string }> = [];
        // after and before decode a cursor alike: they take the hostile values in turn.
        let k = 0;
        const cursor = (token: string) => {
          const parameter = k++ % 2 ? "before" : "after";
          return { query: `${parameter}=${token}`, parameter };
        };
        HOSTILE.forEach((value, i) => {
          if (ours(i)) queries.push({ query: `q=${value}`, parameter: "q" }, cursor(value));
          // Sorting, paging and unknown keys are read alike by every list (contracts/list-query): each list takes a third of them, in turn.
          if (i % 3 === lists.indexOf(list) % 3) {
            queries.push(
              { query: `sort=${value}`, parameter: "sort" },
              { query: `page=${value}`, parameter: "page" },
              { query: `pageSize=${value}`, parameter: "pageSize" },
              { query: `${value}=1`, parameter: keyOf(value) },
            );
          }
        });
        for (const field of spec.allowed.sort)
          queries.push({ query: `sort=-${field}`, parameter: "sort" }, { query: `sort=${field}`, parameter: "sort" });
        // Cursors this list could have given out, holding hostile keys instead of a row's.
        const sorts = spec.defaultSort;
        const signature = [
          ...sorts.map((s) => (s.order === "desc" ? "-" : "") + s.field),
          `${sorts.at(-1)?.order === "desc" ? "-" : ""}id`,
        ].join(",");
        for (const value of [...text, 1.5, 2 ** 31, 1e308, -1e308, null, true, { a: 1 }, ["x"]].filter((_, i) =>
          ours(i),
        )) {
          // With a hostile id, and with a real one so that the hostile keys reach the keyset condition.
          queries.push(cursor(cursorOf(signature, [...sorts.map(() => value), value])));
          queries.push(
            cursor(cursorOf(signature, [...sorts.map(() => value), "00000000-0000-0000-0000-000000000000"])),
          );
        }
        failures.push(...(await probe(list, queries, [callersOf(list).at(-1)!])));
        requests += queries.length;
        // The customer's scope joins the search and the keyset condition.
        const scoped = queries.filter(({ parameter }) => ["q", "after", "before"].includes(parameter));
        if (callersOf(list).includes(customer)) {
          failures.push(...(await probe(list, scoped, [customer])));
          requests += scoped.length;
        }
      }
      console.info(
        `list fuzz on ${kind}: search, sort, paging and cursors, ${requests} requests in ${Date.now() - started} ms`,
      );
      expect(failures).toEqual([]);
    }, 300_000);
  });
}

/** The parameter name a hostile key arrives as (URLSearchParams decodes bad UTF-8 to U+FFFD). */
function keyOf(value: string): string {
  return new URLSearchParams(`${value}=1`).keys().next().value ?? "";
}
