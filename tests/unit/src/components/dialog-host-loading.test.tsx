// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import { ConfigProvider } from "antd";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// The lazy code is imported afresh (antd's modules through Vitest's transform): under a full
// parallel run that takes more than Testing Library's default second (the test itself has five).
const LAZY_CODE_WAIT = { timeout: 4_000 };

// Each test imports the host afresh, so its dialogs' code has not been loaded yet.
async function freshHost() {
  const host = await import("../../../../src/components/dialog-host");
  const dialogs = await import("../../../../src/components/dialogs");
  const toaster = await import("../../../../src/components/toaster");
  render(
    <ConfigProvider theme={{ token: { motion: false } }}>
      <host.DialogHost />
    </ConfigProvider>,
  );
  return { ...dialogs, toasts: toaster.toasts };
}

beforeEach(() => vi.resetModules());
afterEach(() => {
  vi.doUnmock("../../../../src/components/dialog-frames");
  cleanup();
});

describe("DialogHost before its dialogs' code has loaded", () => {
  it("shows a dialog opened at once as soon as the code is in", async () => {
    const { useDialogs } = await freshHost();
    act(() => void useDialogs().open(<p>Delete this tune?</p>, { header: "Delete tune" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(await screen.findByRole("dialog", undefined, LAZY_CODE_WAIT)).toBeTruthy();
    expect(screen.getByText("Delete this tune?")).toBeTruthy();
  });

  it("frees the key of a dialog closed before the code came, and shows nothing for it", async () => {
    const { useDialogs, dialogStore } = await freshHost();
    act(() => {
      const key = useDialogs().open(<p>Gone before shown</p>);
      useDialogs().close(key);
    });
    await waitFor(() => expect(dialogStore.getSnapshot()).toEqual([]));
    expect(screen.queryByText("Gone before shown")).toBeNull();
  });

  it("closes the dialogs it cannot show when the code cannot be fetched, and says so in a toast", async () => {
    vi.doMock("../../../../src/components/dialog-frames", () => {
      throw new TypeError("Failed to fetch dynamically imported module");
    });
    const { useDialogs, dialogStore, toasts } = await freshHost();
    act(() => void useDialogs().open(<p>Never shown</p>, { header: "Offline" }));
    await waitFor(() => expect(dialogStore.getSnapshot()).toEqual([]));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(toasts.getSnapshot().map((toast) => toast.title)).toContain("The dialog could not be opened");
  });
});
