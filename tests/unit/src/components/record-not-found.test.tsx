// @vitest-environment jsdom
/**
 * The one mechanism behind "an id that names nothing gives 404 Page Not Found": which fetch
 * failures mean "no such record", and the boundary that then shows the 404 page in place of the
 * whole route's page until the address names something else.
 */
import { act, cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter, Route, Routes, useNavigate, useParams } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { RecordNotFoundBoundary, useRecordMissing } from "../../../../src/components/record-not-found";
import { isClientError, isRecordMissing, PAGE_NOT_FOUND } from "../../../../src/lib/record-missing";

// The lazy code is imported afresh (antd's modules through Vitest's transform): under a full
// parallel run that takes more than Testing Library's default second (the test itself has five).
const LAZY_CODE_WAIT = { timeout: 4_000 };

window.matchMedia ??= ((query: string) => ({
  media: query,
  matches: false,
  addEventListener: () => undefined,
  removeEventListener: () => undefined,
  addListener: () => undefined,
  removeListener: () => undefined,
})) as unknown as typeof window.matchMedia;

describe("which failures mean the record does not exist", () => {
  it("only the API's 404", () => {
    expect(isRecordMissing({ statusCode: 404, message: "Vehicle x not found" })).toBe(true);
    for (const other of [
      { statusCode: 403 },
      { statusCode: 500 },
      { statusCode: 0, message: "Network error" },
      { statusCode: "404" },
      new Error("404"),
      null,
      undefined,
      404,
    ]) {
      expect(isRecordMissing(other), JSON.stringify(other)).toBe(false);
    }
  });

  it("4xx answers are not retried; network failures and 5xx are", () => {
    expect([400, 401, 403, 404, 409, 499].every((statusCode) => isClientError({ statusCode }))).toBe(true);
    expect([0, 500, 503].some((statusCode) => isClientError({ statusCode }))).toBe(false);
    expect(isClientError(new Error("boom"))).toBe(false);
  });

  it("the page says 404 Page Not Found", () => {
    expect(PAGE_NOT_FOUND).toMatchObject({ statusCode: 404, message: "Page Not Found" });
  });
});

/** A record page: the record its address names is missing when the id starts with "gone". */
function RecordPage({ named }: { named: boolean }) {
  const { id = "" } = useParams();
  const missing = useRecordMissing(
    id.startsWith("gone") ? { statusCode: 404, message: `Record ${id} not found` } : null,
    named,
  );
  if (missing) return null;
  return <h2>Record {id}</h2>;
}

let go: (path: string) => void = () => undefined;
function Navigator() {
  const navigate = useNavigate();
  go = (path) => navigate(path);
  return null;
}

function renderAt(path: string, named = true) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Navigator />
      <Routes>
        <Route
          path="/things/:id"
          element={
            <RecordNotFoundBoundary>
              <RecordPage named={named} />
              <p>The list behind the drawer</p>
            </RecordNotFoundBoundary>
          }
        />
      </Routes>
    </MemoryRouter>,
  );
}

describe("RecordNotFoundBoundary", () => {
  afterEach(cleanup);

  it("shows the record when it exists", () => {
    renderAt("/things/a1");
    expect(screen.getByRole("heading", { name: "Record a1" })).toBeTruthy();
    expect(screen.queryByText("Page Not Found")).toBeNull();
  });

  it("replaces the whole page (the list behind a drawer too) with 404 Page Not Found, and shows the page again at another address", async () => {
    renderAt("/things/gone-1");
    // The error page's code loads when it is first shown (src/components/deferred-error-page.tsx).
    expect(await screen.findByRole("heading", { name: "404" }, LAZY_CODE_WAIT)).toBeTruthy();
    expect(screen.getByTestId("error-message").textContent).toBe("Page Not Found");
    expect(screen.getByRole("button", { name: "Go Home" })).toBeTruthy();
    expect(screen.queryByText("The list behind the drawer")).toBeNull();

    act(() => go("/things/b2"));
    expect(screen.getByRole("heading", { name: "Record b2" })).toBeTruthy();
    expect(screen.queryByText("Page Not Found")).toBeNull();

    act(() => go("/things/gone-2"));
    expect(screen.getByTestId("error-message").textContent).toBe("Page Not Found");
  });

  it("a component whose record the address does not name reports nothing", () => {
    renderAt("/things/gone-3", false);
    expect(screen.queryByText("Page Not Found")).toBeNull();
    expect(screen.getByText("The list behind the drawer")).toBeTruthy();
  });
});
