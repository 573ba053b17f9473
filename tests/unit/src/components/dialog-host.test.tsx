// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { ConfigProvider } from "antd";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import { DialogHost, loadDialogFrames } from "../../../../src/components/dialog-host";
import {
  DIALOG_MAX_WIDTH_PX,
  type DialogContentProps,
  dialogStore,
  useDialogs,
} from "../../../../src/components/dialogs";

function renderHost() {
  // Without motion antd finishes its close animation at once, so closed dialogs leave the DOM.
  return render(
    <ConfigProvider theme={{ token: { motion: false } }}>
      <DialogHost />
    </ConfigProvider>,
  );
}

function open(...args: Parameters<ReturnType<typeof useDialogs>["open"]>): string {
  let key = "";
  act(() => {
    key = useDialogs().open(...args);
  });
  return key;
}

function backdrop(key: string): HTMLElement {
  const element = document.querySelector<HTMLElement>(`[data-dialog-key="${key}"]`);
  if (!element) throw new Error(`No backdrop for dialog ${key}`);
  return element;
}

function clickOutside(key: string): void {
  fireEvent.mouseDown(backdrop(key));
  fireEvent.click(backdrop(key));
}

// The frames load when the first dialog opens (tests/unit/src/components/dialog-host-loading.test.tsx); here they are loaded first.
beforeAll(() => loadDialogFrames());

afterEach(async () => {
  act(() => {
    for (const entry of dialogStore.getSnapshot()) if (entry.visible) dialogStore.close(entry.key);
  });
  await waitFor(() => expect(dialogStore.getSnapshot()).toEqual([]));
  cleanup();
});

describe("DialogHost", () => {
  it("shows an opened dialog with its header and content", () => {
    renderHost();
    open(<p>Delete this tune?</p>, { header: "Delete tune", icon: { name: "warning" } });
    expect(screen.getByRole("dialog")).toBeTruthy();
    expect(screen.getByText("Delete tune")).toBeTruthy();
    expect(screen.getByText("Delete this tune?")).toBeTruthy();
  });

  it("hides the header with hideHeader", () => {
    renderHost();
    open(<p>Body only</p>, { header: "Hidden title", hideHeader: true });
    expect(screen.queryByText("Hidden title")).toBeNull();
    expect(screen.getByText("Body only")).toBeTruthy();
  });

  it("is at most 672 px wide", () => {
    expect(DIALOG_MAX_WIDTH_PX).toBe(672);
    renderHost();
    open(<p>Wide</p>, { ui: { width: 2000 } });
    expect(document.querySelector<HTMLElement>(".ant-modal")?.style.width).toBe("672px");
  });

  it("closes only the topmost dialog on Escape", async () => {
    renderHost();
    open(<p>Bottom</p>);
    open(<p>Top</p>);
    fireEvent.keyDown(window, { key: "Escape" });
    await waitFor(() => expect(screen.queryByText("Top")).toBeNull());
    expect(screen.getByText("Bottom")).toBeTruthy();
  });

  it("closes the dialog with its close button", async () => {
    renderHost();
    open(<p>Closable</p>);
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByText("Closable")).toBeNull());
  });

  it("closes the dialog on a click outside it", async () => {
    renderHost();
    const key = open(<p>Dismissible</p>);
    clickOutside(key);
    await waitFor(() => expect(screen.queryByText("Dismissible")).toBeNull());
  });

  it("does not close a dialog with barrierDismissible false on a click outside", async () => {
    renderHost();
    const key = open(<p>Must answer</p>, { barrierDismissible: false });
    clickOutside(key);
    await act(async () => {});
    expect(screen.getByText("Must answer")).toBeTruthy();
    fireEvent.keyDown(window, { key: "Escape" });
    await waitFor(() => expect(screen.queryByText("Must answer")).toBeNull());
  });

  it("does not close on a press inside the dialog released outside it", async () => {
    renderHost();
    const key = open(<p>Select me</p>);
    fireEvent.mouseDown(screen.getByText("Select me"));
    fireEvent.click(backdrop(key));
    await act(async () => {});
    expect(screen.getByText("Select me")).toBeTruthy();
  });

  it("lets the close hook refuse Escape, the close button and an outside click", async () => {
    renderHost();
    const hook = vi.fn(async (_key: string, _reason: string) => false);
    const key = open(<p>Unsaved changes</p>, { closeDialogFunction: hook });
    // One at a time: while the hook is deciding, further requests share its answer.
    fireEvent.keyDown(window, { key: "Escape" });
    await act(async () => {});
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    await act(async () => {});
    clickOutside(key);
    await act(async () => {});
    expect(hook.mock.calls.map(([, reason]) => reason)).toEqual(["escape", "close-button", "outside-click"]);
    expect(screen.getByText("Unsaved changes")).toBeTruthy();
  });

  it("closes when the close hook agrees", async () => {
    renderHost();
    open(<p>Saved</p>, { closeDialogFunction: async () => true });
    fireEvent.keyDown(window, { key: "Escape" });
    await waitFor(() => expect(screen.queryByText("Saved")).toBeNull());
  });

  it("keeps the dialog open and reports it when the close hook fails", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    renderHost();
    open(<p>Hook fails</p>, {
      closeDialogFunction: async () => {
        throw new Error("cannot decide");
      },
    });
    fireEvent.keyDown(window, { key: "Escape" });
    await waitFor(() => expect(errors).toHaveBeenCalled());
    expect(screen.getByText("Hook fails")).toBeTruthy();
    errors.mockRestore();
  });

  it("leaves Escape to a control inside the dialog that handled it", async () => {
    renderHost();
    open(<input aria-label="Search" onKeyDown={(event) => event.key === "Escape" && event.preventDefault()} />);
    fireEvent.keyDown(screen.getByRole("textbox", { name: "Search" }), { key: "Escape" });
    await act(async () => {});
    expect(screen.getByRole("textbox", { name: "Search" })).toBeTruthy();
  });

  it("shows 'An error occurred: {error}' inside the dialog when its content throws", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    function Broken(): never {
      throw new Error("tune file is corrupt");
    }
    renderHost();
    open(<p>Healthy</p>);
    open(Broken, { header: "Broken dialog" });
    expect(screen.getByRole("alert").textContent).toBe("An error occurred: tune file is corrupt");
    expect(screen.getByText("Broken dialog")).toBeTruthy();
    expect(screen.getByText("Healthy")).toBeTruthy();
    errors.mockRestore();
  });

  it("passes props, the key and close to component content", async () => {
    function Rename({ name, dialogKey, close }: { name: string } & DialogContentProps) {
      return (
        <button type="button" onClick={close}>
          Rename {name} in {dialogKey}
        </button>
      );
    }
    renderHost();
    act(() => {
      useDialogs().open(Rename, { props: { name: "Stage 1" }, closeDialogFunction: () => false });
    });
    fireEvent.click(screen.getByRole("button", { name: "Rename Stage 1 in 0" }));
    await waitFor(() => expect(screen.queryByText(/Rename Stage 1/)).toBeNull());
  });

  it("frees the key once the dialog has left the screen", async () => {
    renderHost();
    const key = open(<p>First</p>);
    act(() => useDialogs().close(key));
    await waitFor(() => expect(dialogStore.getSnapshot()).toEqual([]));
    expect(open(<p>Second</p>)).toBe("0");
  });
});
