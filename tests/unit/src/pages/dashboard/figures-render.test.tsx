// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { useSyncExternalStore } from "react";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CustomerDashboard } from "../../../../../contracts/dashboard";

/** Each URL's answer, handed to the page through useSyncExternalStore as React Query does. */
const answers = new Map<string, unknown>();
const listeners = new Set<() => void>();
function answer(url: string, data: unknown) {
  answers.set(url, data);
  for (const listener of listeners) listener();
}
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

vi.mock("@refinedev/core", () => ({
  useCustom: ({ url }: { url: string }) => {
    const data = useSyncExternalStore(subscribe, () => answers.get(url));
    return {
      query: { data: data === undefined ? undefined : { data }, isLoading: data === undefined, isError: false },
    };
  },
}));
vi.mock("@refinedev/antd", () => ({ Breadcrumb: () => null }));

// antd's grid reads the screen's width.
window.matchMedia ??= ((query: string) => ({
  media: query,
  matches: false,
  addEventListener: () => undefined,
  removeEventListener: () => undefined,
  addListener: () => undefined,
  removeListener: () => undefined,
})) as unknown as typeof window.matchMedia;

const { DashboardPage } = await import("../../../../../src/pages/dashboard/index");

const figures: CustomerDashboard = {
  role: "customer",
  vehicles: { total: 1, items: [{ id: "v1", name: "Golf R", vin: null, firmwareId: null }] },
  lastFlash: null,
  licences: { total: 2, unused: 1 },
  openRequests: { total: 0, items: [] },
  dataLogs: { total: 0, recent: [] },
  unreadNotifications: 3,
};

describe("the dashboard's figures when they arrive", () => {
  // Outside act(), as in the browser: what React renders at once is on screen after the microtasks.
  beforeEach(() => {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
    answers.clear();
  });
  afterEach(() => {
    cleanup();
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  });

  it("render as a transition, not in the task of the answer, and then show", async () => {
    render(
      <MemoryRouter>
        <DashboardPage />
      </MemoryRouter>,
    );
    await screen.findByLabelText("Loading the figures");
    answer("dashboard", figures);
    // React renders a useSyncExternalStore update in a microtask: let those run, not the next task.
    for (let turn = 0; turn < 5; turn++) await Promise.resolve();
    expect(screen.queryByTestId("figure-vehicles")).toBeNull();
    expect(screen.getByLabelText("Loading the figures")).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId("figure-vehicles").getAttribute("aria-label")).toBe("Vehicles: 1"));
    expect(screen.getByTestId("figure-unread-notifications").getAttribute("aria-label")).toBe(
      "Unread notifications: 3",
    );
  });
});
