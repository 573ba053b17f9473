import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { ToastQueue } from "../../../../src/lib/toast-queue";
import { createNotificationProvider } from "../../../../src/providers/notification-provider";

let queue: ToastQueue<ReactNode>;

beforeEach(() => {
  vi.useFakeTimers();
  queue = new ToastQueue<ReactNode>();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("Refine notification provider", () => {
  it("shows a success as a success toast: message as title, description below, polite", () => {
    createNotificationProvider(queue).open({
      key: "saved",
      type: "success",
      message: "Saved",
      description: "Tune file updated",
    });
    expect(queue.getSnapshot()).toMatchObject([
      {
        id: "saved",
        title: "Saved",
        description: "Tune file updated",
        color: "success",
        type: "background",
        duration: 5000,
      },
    ]);
  });

  it("shows an error as an error toast announced at once", () => {
    createNotificationProvider(queue).open({
      type: "error",
      message: "Could not save",
      description: "Error (status code: 500)",
    });
    expect(queue.getSnapshot()).toMatchObject([{ title: "Could not save", color: "error", type: "foreground" }]);
  });

  it("keeps an undoable countdown open without a close button until it is replaced", () => {
    const provider = createNotificationProvider(queue);
    provider.open({
      key: "7-tune-files-notification",
      type: "progress",
      message: "You have 5 seconds to undo",
      undoableTimeout: 5,
      cancelMutation: () => {},
    });
    vi.advanceTimersByTime(60_000);
    expect(queue.getSnapshot()).toMatchObject([{ open: true, close: false, progress: false, duration: Infinity }]);
  });

  it("updates the countdown in place and then turns it into the success toast", () => {
    const provider = createNotificationProvider(queue);
    const key = "7-tune-files-notification";
    provider.open({
      key,
      type: "progress",
      message: "You have 5 seconds to undo",
      undoableTimeout: 5,
      cancelMutation: () => {},
    });
    provider.open({
      key,
      type: "progress",
      message: "You have 4 seconds to undo",
      undoableTimeout: 4,
      cancelMutation: () => {},
    });
    expect(queue.getSnapshot()).toMatchObject([{ id: key, title: "You have 4 seconds to undo" }]);
    provider.open({ key, type: "success", message: "Successfully deleted" });
    expect(queue.getSnapshot()).toMatchObject([
      { id: key, title: "Successfully deleted", color: "success", close: true },
    ]);
  });

  it("offers Undo, with alternative text, that cancels the mutation and closes the toast", () => {
    const cancelMutation = vi.fn();
    createNotificationProvider(queue).open({
      key: "undo-me",
      type: "progress",
      message: "You have 5 seconds to undo",
      undoableTimeout: 5,
      cancelMutation,
    });
    const [undo] = queue.getSnapshot()[0].actions;
    expect(undo).toMatchObject({ label: "Undo", altText: "Undo the last change" });
    undo.onClick();
    expect(cancelMutation).toHaveBeenCalledTimes(1);
    expect(queue.getSnapshot()[0].open).toBe(false);
  });

  it("closes the toast of a key, and ignores keys it never opened", () => {
    const provider = createNotificationProvider(queue);
    provider.open({ key: "login-error", type: "error", message: "Wrong password" });
    provider.close("login-error");
    provider.close("register-error");
    expect(queue.getSnapshot()).toMatchObject([{ id: "login-error", open: false }]);
    vi.advanceTimersByTime(200);
    expect(queue.getSnapshot()).toEqual([]);
  });

  it("keeps only the newest 5 notifications", () => {
    const provider = createNotificationProvider(queue);
    for (let index = 0; index < 8; index += 1) provider.open({ type: "success", message: `Saved ${index}` });
    expect(queue.getSnapshot().map((toast) => toast.title)).toEqual([
      "Saved 3",
      "Saved 4",
      "Saved 5",
      "Saved 6",
      "Saved 7",
    ]);
  });
});
