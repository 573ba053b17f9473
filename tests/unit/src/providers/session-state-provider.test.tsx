// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Session, SessionState } from "../../../../src/providers/session";
import { SessionContext, SessionStateProvider, useSessionState } from "../../../../src/providers/session-context";

/** A session whose state the test sets, telling its listeners as the real one does. */
function fakeSession(initial: SessionState) {
  let state = initial;
  const listeners = new Set<(state: SessionState) => void>();
  const session = {
    current: () => state,
    subscribe(listener: (state: SessionState) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } as unknown as Session;
  return {
    session,
    set(next: Partial<SessionState>) {
      state = { ...state, ...next };
      for (const listener of listeners) listener(state);
    },
  };
}

const nobody: SessionState = { ready: false, user: null, role: null, claims: {} };
const driver = { uid: "u1", email: "driver@example.test" } as unknown as SessionState["user"];

function Who() {
  const { ready, user } = useSessionState();
  return <p>{!ready ? "checking" : user ? `signed in as ${user.uid}` : "signed out"}</p>;
}

function renderWith(session: Session) {
  return render(
    <SessionContext.Provider value={session}>
      <SessionStateProvider session={session}>
        <Who />
      </SessionStateProvider>
    </SessionContext.Provider>,
  );
}

describe("SessionStateProvider", () => {
  // Outside act(), as in the browser: what React renders at once shows before the next line runs.
  beforeEach(() => {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
  });
  afterEach(() => {
    cleanup();
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  });

  it("renders the identity SDK's first answer as a transition, which React may split, and shows it", async () => {
    const fake = fakeSession(nobody);
    renderWith(fake.session);
    await screen.findByText("checking");
    fake.set({ ready: true, user: driver });
    // Not rendered in the same task: the page's first mount is sliced.
    expect(screen.getByText("checking")).toBeTruthy();
    await waitFor(() => expect(screen.getByText("signed in as u1")).toBeTruthy());
  });

  it("renders a later change at once, so a sign-out is on screen before the code that signed out goes on", async () => {
    const fake = fakeSession({ ready: true, user: driver, role: "customer", claims: {} });
    renderWith(fake.session);
    await screen.findByText("signed in as u1");
    fake.set({ user: null, role: null });
    expect(screen.getByText("signed out")).toBeTruthy();
  });

  it("a component rendered without the provider still follows the session", async () => {
    const fake = fakeSession({ ready: true, user: null, role: null, claims: {} });
    render(
      <SessionContext.Provider value={fake.session}>
        <Who />
      </SessionContext.Provider>,
    );
    await screen.findByText("signed out");
    fake.set({ user: driver });
    await waitFor(() => expect(screen.getByText("signed in as u1")).toBeTruthy());
  });
});
