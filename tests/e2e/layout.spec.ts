import { type APIRequestContext, expect, type Page } from "@playwright/test";
import { generateDemo } from "../../server/seed/generator";
import { DEMO_TUNE_OPTIONS } from "../../server/seed/tunes";
import { type IdentityEmulator, test } from "./pages/identity";
import { LayoutProbe } from "./pages/layout-probe";
import { DEMO_PASSWORD, demoUsers, LoginPage } from "./pages/login-page";
import { type ParamSource, WALKED_ROUTES, WALKERS, type Walker } from "./route-walk";

const demoTune = generateDemo(DEMO_TUNE_OPTIONS).tune;

/**
 * Every route of the app (tests/e2e/route-walk.ts, checked against the registry by a unit test), as
 * every role that may open it, on a phone (375 px) and a desktop (1280 px), in both colour modes (WIDTHS):
 * nothing scrolls sideways, nothing covers the page title, the navigation can be reached, the side
 * menu's labels are whole, and a signed-out visitor is offered no signed-in controls. One page per
 * role, signed in once; routes with parameters open a real record of the demo data.
 */
/**
 * Both widths in the light theme; the dark theme changes colours, not geometry, so it is walked on
 * the phone only, where a wrong colour on a cramped header or drawer would show (the whole walk
 * is most of the browser suite's time).
 */
const WIDTHS = { light: [375, 1280], dark: [375] } as const;

/** A walk's time limit: signing in, then each route opened (about 1 s each on a normal machine; ten times that is a slow one's margin). */
const WALK_START_MS = 60_000;
const WALK_ROUTE_MS = 10_000;

async function concretePaths(
  request: APIRequestContext,
  emulator: IdentityEmulator,
  walker: Walker,
): Promise<string[]> {
  const tokens = new Map<Walker, string>();
  const headersOf = async (role: Walker) => {
    if (role === "visitor") throw new Error("the visitor reads no records");
    if (!tokens.has(role)) tokens.set(role, await emulator.idToken(demoUsers[role], DEMO_PASSWORD));
    return { authorization: `Bearer ${tokens.get(role)}` };
  };
  const read = async (role: Walker, path: string) => {
    const response = await request.get(`/api/v1/${path}`, { headers: await headersOf(role) });
    expect(response.status(), `GET ${path} as ${role}: ${await response.text()}`).toBe(200);
    return (await response.json()) as { data: Array<Record<string, string>> };
  };
  /** None in the demo data yet: the demo customer asks the demo dealer for a tune for the demo car. */
  const askTheDemoDealer = async (): Promise<string> => {
    const [vehicles, dealers] = [
      await read("customer", "user-vehicles"),
      await read("customer", "dealers?pageSize=100"),
    ];
    const demoDealer = dealers.data.find((dealer) => dealer.businessName === "Demo Performance Ltd");
    if (!demoDealer) throw new Error("the dealer directory has no Demo Performance Ltd");
    const asked = await request.post("/api/v1/tuning-requests", {
      headers: await headersOf("customer"),
      data: {
        vehicleId: vehicles.data[0].id,
        dealerId: demoDealer.id,
        questionnaire: { fuel: "98", transmission: "manual", notes: "A smoother part-throttle, please" },
        logIds: [],
      },
    });
    expect(asked.status(), await asked.text()).toBe(201);
    return ((await asked.json()) as { id: string }).id;
  };
  const value = async (route: string, source: ParamSource): Promise<string> => {
    if ("fixed" in source) return source.fixed;
    if ("firstOrder" in source) {
      const orders = await read("customer", "payments/orders");
      if (orders.data[0]) return orders.data[0].id;
      // None yet: the customer starts buying a tune for the demo car and leaves the checkout open, as people do.
      // The demo dealer puts a new tune for the demo firmware on sale (the demo customer owns the others).
      const uploaded = await request.post("/api/v1/tune-files", {
        headers: await headersOf("dealer"),
        multipart: {
          title: `Layout walk ${Date.now()}`,
          file: { name: "walk.bin", mimeType: "application/octet-stream", buffer: Buffer.from(demoTune.image) },
        },
      });
      expect(uploaded.status(), await uploaded.text()).toBe(201);
      const tuneId = ((await uploaded.json()) as { id: string }).id;
      const published = await request.put(`/api/v1/tune-files/${tuneId}/publish`, {
        headers: await headersOf("dealer"),
        data: { priceCents: 4900, currency: "EUR" },
      });
      expect(published.status(), await published.text()).toBe(200);
      const vehicles = await read("customer", "user-vehicles");
      const started = await request.post("/api/v1/payments/tune-file-order", {
        headers: await headersOf("customer"),
        data: { tuneFileId: tuneId, vehicleId: vehicles.data[0].id },
      });
      expect(started.status(), await started.text()).toBe(201);
      return ((await started.json()) as { order: { id: string } }).order.id;
    }
    if ("shareOfFirstLog" in source) {
      const logs = await read("customer", "data-logs");
      const shared = await request.post(`/api/v1/data-logs/${logs.data[0].id}/share`, {
        headers: await headersOf("customer"),
        data: {},
      });
      expect(shared.status(), await shared.text()).toBe(201);
      return ((await shared.json()) as { token: string }).token;
    }
    const role = source.as ?? (walker === "visitor" ? "admin" : walker);
    const records = await read(role, source.list);
    if (!records.data[0] && source.list === "tuning-requests") return askTheDemoDealer();
    const record = records.data[0];
    if (!record) throw new Error(`${route}: the demo data has no record in ${source.list} for the ${role}`);
    return record[source.key ?? "id"];
  };
  const paths: string[] = [];
  for (const route of WALKED_ROUTES.filter((candidate) => WALKERS[candidate.guard].includes(walker))) {
    let path = route.path;
    for (const [name, source] of Object.entries(route.params ?? {}))
      path = path.replace(`:${name}`, encodeURIComponent(await value(route.path, source)));
    paths.push(path);
  }
  return paths;
}

async function checkRoutes(page: Page, walker: Walker, paths: string[], widths: readonly number[]) {
  const probe = new LayoutProbe(page);
  const problems: string[] = [];
  for (const width of widths) {
    await page.setViewportSize({ width, height: 800 });
    for (const [index, path] of paths.entries()) {
      // The first page is loaded as a link from elsewhere would; the app then moves to the others as a
      // reader does, without loading it again (a full load per page was most of the walk's time). A
      // toast left by the page before (a record not the walker's is refused) is left behind by a full load.
      if (index === 0 || (await probe.toastShown())) await page.goto(path);
      else await probe.openInApp(path);
      const where = `${path} as ${walker} at ${width} px`;
      // The page has rendered when its main heading shows (a portal page's h2, the landing's h1, a full-screen page's h3).
      await expect(
        page.locator("h1, h2, h3").filter({ visible: true }).first(),
        `${where} shows a heading`,
      ).toBeVisible();
      // Lists and records fill in after the heading: let them settle (the live-events stream keeps the network busy, so not "networkidle").
      await probe.settled();
      const overflow = await probe.sidewaysOverflow();
      if (overflow > 0)
        problems.push(`${where} scrolls sideways by ${overflow} px: ${(await probe.overflowingElements()).join(", ")}`);
      if (path !== "/" && path !== "/login") {
        const cover = await probe.titleCoveredBy();
        if (cover) problems.push(`${where}: the title's first letter is covered by ${cover}`);
      }
      try {
        await probe.expectNavigationReachable();
      } catch {
        problems.push(`${where}: neither a menu nor a menu button is visible`);
      }
      const cut = await probe.cutMenuLabels();
      if (cut.length > 0) problems.push(`${where}: menu labels cut short: ${cut.join(", ")}`);
      if (walker === "visitor" && (await probe.signOutControls().count()) > 0)
        problems.push(`${where} offers "Sign out" to a visitor`);
      if (path === "/admin/firmware-support/matrix" && width === 1280) {
        const selected = await probe.selectedMenuItem();
        if (selected !== "Firmware support")
          problems.push(`${where}: the menu highlights ${JSON.stringify(selected)}, not "Firmware support"`);
        if (!(await probe.breadcrumb().isVisible())) problems.push(`${where} has no breadcrumb`);
      }
    }
  }
  expect(problems, "layout problems").toEqual([]);
}

async function signIn(page: Page, email: string) {
  await new LoginPage(page).open();
  await new LoginPage(page).signIn(email);
  await expect(page).toHaveURL(/\/dashboard$/);
}

for (const colorScheme of ["light", "dark"] as const) {
  test.describe(`${colorScheme} mode`, () => {
    test.use({ colorScheme });
    for (const walker of ["visitor", "customer", "dealer", "admin"] as const) {
      // One test per width: the admin's walk at both widths would come near the time limit on a slow machine.
      for (const width of WIDTHS[colorScheme]) {
        const screen = width < 768 ? "a phone" : "a desktop";
        test(`every route the ${walker} may open fits ${screen} in the ${colorScheme} theme, menu reachable and whole, titles uncovered`, async ({
          page,
          request,
          emulator,
        }) => {
          const paths = await concretePaths(request, emulator, walker);
          // A limit per route opened: the admin's walk of some 70 routes takes several times longer on a slow
          // machine beside the rest of the browser suite, so a fixed limit would be wrong on one or the other.
          test.setTimeout(WALK_START_MS + paths.length * WALK_ROUTE_MS);
          if (walker !== "visitor") await signIn(page, demoUsers[walker]);
          await checkRoutes(page, walker, paths, [width]);
        });
      }
    }
  });
}
