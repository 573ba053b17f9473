// @vitest-environment jsdom
/** The app's error page loads when an error is shown (src/components/app-error-boundary.tsx). */
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// The lazy code is imported afresh (antd's modules through Vitest's transform): under a full
// parallel run on two cores that took more than Testing Library's default second, and once more
// than the test's default five seconds in all; the waits are long, a page that never shows still fails.
const LAZY_CODE_WAIT = { timeout: 15_000 };

window.matchMedia ??= ((query: string) => ({
  media: query,
  matches: false,
  addEventListener: () => undefined,
  removeEventListener: () => undefined,
  addListener: () => undefined,
  removeListener: () => undefined,
})) as unknown as typeof window.matchMedia;

async function showFatalError() {
  const { AppErrorBoundary, errorState } = await import("../../../../src/components/app-error-boundary");
  vi.spyOn(console, "error").mockImplementation(() => undefined);
  render(
    <MemoryRouter initialEntries={["/vehicles"]}>
      <AppErrorBoundary>
        <Routes>
          <Route path="/" element={<p>The home page</p>} />
          <Route path="/vehicles" element={<p>The vehicles page</p>} />
        </Routes>
      </AppErrorBoundary>
    </MemoryRouter>,
  );
  act(() =>
    errorState.showError(
      { statusCode: 500, message: "The garage burned down", description: "Try again later." },
      "/vehicles",
    ),
  );
  return errorState;
}

beforeEach(() => vi.resetModules());
afterEach(() => {
  vi.doUnmock("../../../../src/components/error-page");
  vi.restoreAllMocks();
  cleanup();
});

describe("the error page", { timeout: 30_000 }, () => {
  it("shows the error with antd's page once its code is in, and Go Home goes home", async () => {
    const errorState = await showFatalError();
    expect(await screen.findByTestId("error-message", undefined, LAZY_CODE_WAIT)).toHaveProperty(
      "textContent",
      "The garage burned down",
    );
    expect(document.querySelector(".ant-result")).not.toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Go Home" }));
    expect(errorState.getSnapshot()).toBeNull();
    expect(screen.getByText("The home page")).toBeTruthy();
  });

  it("still shows the error, plainly, when its code cannot be fetched", async () => {
    vi.doMock("../../../../src/components/error-page", () => {
      throw new TypeError("Failed to fetch dynamically imported module");
    });
    const errorState = await showFatalError();
    expect(await screen.findByTestId("error-message", undefined, LAZY_CODE_WAIT)).toHaveProperty(
      "textContent",
      "The garage burned down",
    );
    expect(screen.getByText("Try again later.")).toBeTruthy();
    expect(document.querySelector(".ant-result")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Go Home" }));
    expect(errorState.getSnapshot()).toBeNull();
    expect(screen.getByText("The home page")).toBeTruthy();
  });

  it("takes the build's drawing of the page away when a refusal shows in its place, so that the refusal is seen", async () => {
    const drawing = document.createElement("div");
    drawing.className = "page-snapshot";
    document.body.append(drawing);
    const { DeferredErrorPage } = await import("../../../../src/components/deferred-error-page");
    render(
      <MemoryRouter>
        <DeferredErrorPage error={{ statusCode: 403, message: "Forbidden", description: "Administrators only." }} />
      </MemoryRouter>,
    );
    expect(await screen.findByTestId("error-message", undefined, LAZY_CODE_WAIT)).toHaveProperty(
      "textContent",
      "Forbidden",
    );
    expect(document.querySelector(".page-snapshot")).toBeNull();
  });
});
