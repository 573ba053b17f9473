import { describe, expect, it, vi } from "vitest";

import { DialogStore, MAX_DIALOGS } from "../../../../src/lib/dialog-store";

function openMany(store: DialogStore<string>, count: number): string[] {
  return Array.from({ length: count }, (_, index) => store.open(`dialog ${index}`, {}));
}

describe("dialog keys", () => {
  it("gives the first dialog the key '0' and the next ones '1', '2'", () => {
    const store = new DialogStore<string>();
    expect(openMany(store, 3)).toEqual(["0", "1", "2"]);
  });

  it("reuses the first unused key once a dialog has closed and been removed", () => {
    const store = new DialogStore<string>();
    openMany(store, 3);
    store.close("1");
    store.remove("1");
    expect(store.open("again", {})).toBe("1");
  });

  it("keeps the key of a dialog that is still fading out", () => {
    const store = new DialogStore<string>();
    openMany(store, 1);
    store.close("0");
    expect(store.open("next", {})).toBe("1");
  });

  it("allows 100 dialogs, keyed '0' to '99'", () => {
    const store = new DialogStore<string>();
    const keys = openMany(store, MAX_DIALOGS);
    expect(MAX_DIALOGS).toBe(100);
    expect(keys[0]).toBe("0");
    expect(keys[99]).toBe("99");
  });

  it("throws 'Maximum number of dialogs reached' when opening a 101st dialog", () => {
    const store = new DialogStore<string>();
    openMany(store, 100);
    expect(() => store.open("one too many", {})).toThrowError(new Error("Maximum number of dialogs reached"));
  });

  it("throws 'Overlay not found' when closing an unknown key", () => {
    const store = new DialogStore<string>();
    openMany(store, 1);
    expect(() => store.close("7")).toThrowError(new Error("Overlay not found"));
  });

  it("rejects with 'Overlay not found' when dismissing an unknown key", async () => {
    const store = new DialogStore<string>();
    await expect(store.dismiss("3", "escape")).rejects.toThrowError(new Error("Overlay not found"));
  });
});

describe("closing and removing", () => {
  it("marks a closed dialog not visible until the host removes it", () => {
    const store = new DialogStore<string>();
    openMany(store, 1);
    store.close("0");
    expect(store.getSnapshot()).toMatchObject([{ key: "0", visible: false }]);
    store.remove("0");
    expect(store.getSnapshot()).toEqual([]);
  });

  it("does not remove a dialog that is still visible", () => {
    const store = new DialogStore<string>();
    openMany(store, 1);
    store.remove("0");
    expect(store.getSnapshot()).toHaveLength(1);
  });

  it("closes unconditionally with close(), without asking the close hook", () => {
    const store = new DialogStore<string>();
    const hook = vi.fn(() => false);
    store.open("form", { closeDialogFunction: hook });
    store.close("0");
    expect(hook).not.toHaveBeenCalled();
    expect(store.getSnapshot()[0].visible).toBe(false);
  });

  it("notifies subscribers with a new snapshot on every change", () => {
    const store = new DialogStore<string>();
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    const before = store.getSnapshot();
    store.open("a", {});
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.getSnapshot()).not.toBe(before);
    unsubscribe();
    store.close("0");
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe("topmost dialog", () => {
  it("is the most recently opened visible dialog, not the highest key", () => {
    const store = new DialogStore<string>();
    openMany(store, 3);
    store.close("0");
    store.remove("0");
    store.open("reopened", {});
    expect(store.topmost()?.key).toBe("0");
    store.close("0");
    expect(store.topmost()?.key).toBe("2");
  });

  it("dismissTopmost('escape') closes only the topmost dialog", async () => {
    const store = new DialogStore<string>();
    openMany(store, 2);
    await expect(store.dismissTopmost("escape")).resolves.toBe(true);
    expect(store.getSnapshot().map((entry) => entry.visible)).toEqual([true, false]);
  });

  it("dismissTopmost resolves false when no dialog is open", async () => {
    await expect(new DialogStore<string>().dismissTopmost("escape")).resolves.toBe(false);
  });
});

describe("outside clicks", () => {
  it("dismiss the topmost dialog", async () => {
    const store = new DialogStore<string>();
    openMany(store, 1);
    await expect(store.dismiss("0", "outside-click")).resolves.toBe(true);
    expect(store.getSnapshot()[0].visible).toBe(false);
  });

  it("never dismiss a dialog below the topmost one", async () => {
    const store = new DialogStore<string>();
    openMany(store, 2);
    await expect(store.dismiss("0", "outside-click")).resolves.toBe(false);
    expect(store.getSnapshot()[0].visible).toBe(true);
  });

  it("never dismiss a dialog with barrierDismissible false, and do not ask its hook", async () => {
    const store = new DialogStore<string>();
    const hook = vi.fn(() => true);
    store.open("important", { barrierDismissible: false, closeDialogFunction: hook });
    await expect(store.dismiss("0", "outside-click")).resolves.toBe(false);
    expect(hook).not.toHaveBeenCalled();
    expect(store.getSnapshot()[0].visible).toBe(true);
  });

  it("barrierDismissible false still lets Escape and the close button close", async () => {
    const store = new DialogStore<string>();
    store.open("important", { barrierDismissible: false });
    store.open("important too", { barrierDismissible: false });
    await expect(store.dismiss("1", "close-button")).resolves.toBe(true);
    await expect(store.dismiss("0", "escape")).resolves.toBe(true);
  });
});

describe("close hook (closeDialogFunction)", () => {
  it("is asked with the key and the reason", async () => {
    const store = new DialogStore<string>();
    const hook = vi.fn(() => true);
    store.open("form", { closeDialogFunction: hook });
    await store.dismiss("0", "close-button");
    expect(hook).toHaveBeenCalledWith("0", "close-button");
  });

  it("keeps the dialog open when it returns false", async () => {
    const store = new DialogStore<string>();
    store.open("form", { closeDialogFunction: () => false });
    await expect(store.dismiss("0", "escape")).resolves.toBe(false);
    expect(store.getSnapshot()[0].visible).toBe(true);
  });

  it("keeps the dialog open when its promise resolves to false", async () => {
    const store = new DialogStore<string>();
    store.open("form", { closeDialogFunction: async () => false });
    await expect(store.dismiss("0", "escape")).resolves.toBe(false);
    expect(store.getSnapshot()[0].visible).toBe(true);
  });

  it("closes the dialog when it returns nothing or true", async () => {
    const store = new DialogStore<string>();
    store.open("a", { closeDialogFunction: () => undefined });
    store.open("b", { closeDialogFunction: async () => true });
    await expect(store.dismiss("1", "escape")).resolves.toBe(true);
    await expect(store.dismiss("0", "escape")).resolves.toBe(true);
    expect(store.getSnapshot().every((entry) => !entry.visible)).toBe(true);
  });

  it("is asked once while it is still deciding, however often the user presses Escape", async () => {
    const store = new DialogStore<string>();
    let answer: (value: boolean) => void = () => {};
    const hook = vi.fn(() => new Promise<boolean>((resolve) => (answer = resolve)));
    store.open("form", { closeDialogFunction: hook });
    const first = store.dismiss("0", "escape");
    const second = store.dismiss("0", "escape");
    answer(true);
    await expect(Promise.all([first, second])).resolves.toEqual([true, true]);
    expect(hook).toHaveBeenCalledTimes(1);
  });

  it("does not close a new dialog that took the key while a slow hook was deciding", async () => {
    const store = new DialogStore<string>();
    let answer: (value: boolean) => void = () => {};
    store.open("old", { closeDialogFunction: () => new Promise<boolean>((resolve) => (answer = resolve)) });
    const decision = store.dismiss("0", "escape");
    store.close("0");
    store.remove("0");
    store.open("new", {});
    answer(true);
    await decision;
    expect(store.getSnapshot()).toMatchObject([{ key: "0", content: "new", visible: true }]);
  });

  it("keeps the dialog open and rejects when the hook fails", async () => {
    const store = new DialogStore<string>();
    store.open("form", {
      closeDialogFunction: async () => {
        throw new Error("save failed");
      },
    });
    await expect(store.dismiss("0", "escape")).rejects.toThrow("save failed");
    expect(store.getSnapshot()[0].visible).toBe(true);
  });
});
