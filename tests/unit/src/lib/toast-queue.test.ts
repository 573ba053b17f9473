import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import {
  beginSwipe,
  endSwipe,
  moveSwipe,
  regionLabel,
  swipeStartBuffer,
  TOAST_DEFAULT_DURATION_MS,
  TOAST_DEFAULT_LABEL,
  TOAST_GAP_PX,
  TOAST_HOTKEY,
  TOAST_LIMIT,
  TOAST_REMOVE_DELAY_MS,
  TOAST_SWIPE_DIRECTION,
  ToastQueue,
} from "../../../../src/lib/toast-queue";

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("toast constants", () => {
  it("are the product's figures: 5 s, at most 5, removed 200 ms after closing, F8, a 16 px gap, swipe right", () => {
    expect(TOAST_DEFAULT_DURATION_MS).toBe(5000);
    expect(TOAST_LIMIT).toBe(5);
    expect(TOAST_REMOVE_DELAY_MS).toBe(200);
    expect(TOAST_HOTKEY).toBe("F8");
    expect(TOAST_GAP_PX).toBe(16);
    expect(TOAST_SWIPE_DIRECTION).toBe("right");
    expect(TOAST_DEFAULT_LABEL).toBe("Notification");
  });
});

describe("adding toasts", () => {
  it("fills every field of a toast with its default", () => {
    const queue = new ToastQueue();
    const id = queue.add({ title: "Saved" });
    expect(queue.getSnapshot()).toEqual([
      {
        id,
        open: true,
        title: "Saved",
        description: undefined,
        icon: undefined,
        avatar: undefined,
        color: "primary",
        actions: [],
        close: true,
        progress: true,
        duration: 5000,
        type: "foreground",
        paused: false,
        remaining: 5000,
        revision: expect.any(Number),
      },
    ]);
  });

  it("keeps only the newest 5 toasts", () => {
    const queue = new ToastQueue();
    const ids = Array.from({ length: 7 }, (_, index) => queue.add({ title: `toast ${index}` }));
    expect(queue.getSnapshot().map((toast) => toast.id)).toEqual(ids.slice(2));
  });

  it("stops the timer of a toast dropped from the queue", () => {
    const queue = new ToastQueue();
    const listener = vi.fn();
    Array.from({ length: 6 }, (_, index) => queue.add({ title: `toast ${index}`, duration: 100 + index }));
    queue.subscribe(listener);
    vi.advanceTimersByTime(100);
    expect(listener).not.toHaveBeenCalled();
  });

  it("replaces a toast added again under the same id, in place, restarting its timer", () => {
    const queue = new ToastQueue();
    queue.add({ id: "save", title: "You have 5 seconds to undo" });
    queue.add({ id: "other", title: "Other" });
    vi.advanceTimersByTime(4000);
    queue.add({ id: "save", title: "Saved" });
    expect(queue.getSnapshot().map((toast) => [toast.id, toast.title])).toEqual([
      ["save", "Saved"],
      ["other", "Other"],
    ]);
    vi.advanceTimersByTime(4999);
    expect(queue.timeLeft("save")).toBe(1);
  });

  it("reopens a closing toast that is added again before it is removed", () => {
    const queue = new ToastQueue();
    queue.add({ id: "a", title: "first" });
    queue.close("a");
    queue.add({ id: "a", title: "second" });
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS);
    expect(queue.getSnapshot()).toMatchObject([{ id: "a", open: true, title: "second" }]);
  });
});

describe("validation", () => {
  it("throws for a type other than foreground or background", () => {
    const queue = new ToastQueue();
    expect(() => queue.add({ type: "urgent" as "foreground" })).toThrow(/foreground.*background/);
    expect(queue.add({ type: "background" })).toBeTruthy();
    expect(queue.add({ type: "foreground" })).toBeTruthy();
  });

  it("throws for an action without alternative text", () => {
    const queue = new ToastQueue();
    expect(() => queue.add({ actions: [{ label: "Undo", altText: "", onClick: () => {} }] })).toThrow(/altText/);
    expect(() => queue.add({ actions: [{ label: "Undo", onClick: () => {} } as never] })).toThrow(/altText/);
    expect(queue.getSnapshot()).toEqual([]);
  });

  it("throws for a duration that is not a positive number", () => {
    const queue = new ToastQueue();
    expect(() => queue.add({ duration: 0 })).toThrow(RangeError);
    expect(() => queue.add({ duration: -1 })).toThrow(RangeError);
    expect(() => queue.add({ duration: Number.NaN })).toThrow(RangeError);
  });

  it("region label defaults to 'Notification'", () => {
    expect(regionLabel()).toBe("Notification");
    expect(regionLabel(undefined)).toBe("Notification");
    expect(regionLabel("Alerts")).toBe("Alerts");
  });

  it("region label must be a non-empty string", () => {
    expect(() => regionLabel("")).toThrow(/non-empty string/);
    expect(() => regionLabel("   ")).toThrow(/non-empty string/);
    expect(() => regionLabel(42)).toThrow(/non-empty string/);
    expect(() => regionLabel(null)).toThrow(/non-empty string/);
  });
});

describe("timers", () => {
  it("closes a toast after the default 5000 ms, not before", () => {
    const queue = new ToastQueue();
    const id = queue.add({ title: "Saved" });
    vi.advanceTimersByTime(4999);
    expect(queue.getSnapshot()[0].open).toBe(true);
    vi.advanceTimersByTime(1);
    expect(queue.getSnapshot()[0].open).toBe(false);
    expect(queue.timeLeft(id)).toBeUndefined();
  });

  it("honours a custom duration", () => {
    const queue = new ToastQueue();
    queue.add({ duration: 1000 });
    vi.advanceTimersByTime(1000);
    expect(queue.getSnapshot()[0].open).toBe(false);
  });

  it("keeps a toast with an Infinity duration until it is closed, without a progress bar", () => {
    const queue = new ToastQueue();
    const id = queue.add({ duration: Infinity });
    vi.advanceTimersByTime(3_600_000);
    expect(queue.getSnapshot()[0]).toMatchObject({ open: true, progress: false });
    expect(queue.timeLeft(id)).toBe(Infinity);
  });

  it("marks a closed toast open=false and removes it 200 ms later", () => {
    const queue = new ToastQueue();
    const id = queue.add({ title: "Bye" });
    queue.close(id);
    expect(queue.getSnapshot()).toMatchObject([{ id, open: false }]);
    vi.advanceTimersByTime(199);
    expect(queue.getSnapshot()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(queue.getSnapshot()).toEqual([]);
  });

  it("removes a toast 200 ms after it closed by itself", () => {
    const queue = new ToastQueue();
    queue.add({ title: "Bye" });
    vi.advanceTimersByTime(5000 + 200);
    expect(queue.getSnapshot()).toEqual([]);
  });

  it("ignores closing an id it does not hold, and closing twice", () => {
    const queue = new ToastQueue();
    const id = queue.add({});
    expect(() => queue.close("never-opened")).not.toThrow();
    queue.close(id);
    vi.advanceTimersByTime(150);
    queue.close(id);
    vi.advanceTimersByTime(50);
    expect(queue.getSnapshot()).toEqual([]);
  });

  it("pauses while hovered and resumes with the time that was left", () => {
    const queue = new ToastQueue();
    const id = queue.add({ title: "Hover me" });
    vi.advanceTimersByTime(3000);
    queue.pause(id, "hover");
    expect(queue.getSnapshot()[0]).toMatchObject({ paused: true, remaining: 2000 });
    vi.advanceTimersByTime(60_000);
    expect(queue.getSnapshot()[0].open).toBe(true);
    expect(queue.timeLeft(id)).toBe(2000);
    queue.resume(id, "hover");
    expect(queue.getSnapshot()[0].paused).toBe(false);
    vi.advanceTimersByTime(1999);
    expect(queue.getSnapshot()[0].open).toBe(true);
    vi.advanceTimersByTime(1);
    expect(queue.getSnapshot()[0].open).toBe(false);
  });

  it("stays paused while still focused after the pointer leaves", () => {
    const queue = new ToastQueue();
    const id = queue.add({});
    queue.pause(id, "hover");
    queue.pause(id, "focus");
    queue.resume(id, "hover");
    vi.advanceTimersByTime(10_000);
    expect(queue.getSnapshot()[0]).toMatchObject({ open: true, paused: true });
    queue.resume(id, "focus");
    vi.advanceTimersByTime(5000);
    expect(queue.getSnapshot()[0].open).toBe(false);
  });

  it("keeps the remaining time over several pauses", () => {
    const queue = new ToastQueue();
    const id = queue.add({});
    vi.advanceTimersByTime(1000);
    queue.pause(id, "hover");
    queue.resume(id, "hover");
    vi.advanceTimersByTime(1500);
    queue.pause(id, "focus");
    expect(queue.timeLeft(id)).toBe(2500);
    queue.resume(id, "focus");
    vi.advanceTimersByTime(2500);
    expect(queue.getSnapshot()[0].open).toBe(false);
  });

  it("ignores a resume that was not paused for that reason", () => {
    const queue = new ToastQueue();
    const id = queue.add({});
    vi.advanceTimersByTime(1000);
    queue.resume(id, "focus");
    expect(queue.timeLeft(id)).toBe(4000);
    vi.advanceTimersByTime(4000);
    expect(queue.getSnapshot()[0].open).toBe(false);
  });

  it("keeps a toast replaced under the pointer paused until the pointer leaves", () => {
    const queue = new ToastQueue();
    queue.add({ id: "save", title: "You have 5 seconds to undo", duration: Infinity });
    queue.pause("save", "hover");
    queue.add({ id: "save", title: "Saved" });
    expect(queue.getSnapshot()[0]).toMatchObject({ paused: true, remaining: 5000 });
    vi.advanceTimersByTime(60_000);
    expect(queue.getSnapshot()[0].open).toBe(true);
    queue.resume("save", "hover");
    vi.advanceTimersByTime(5000);
    expect(queue.getSnapshot()[0].open).toBe(false);
  });

  it("does not carry pauses over to a toast reopened after it closed", () => {
    const queue = new ToastQueue();
    queue.add({ id: "a" });
    queue.pause("a", "hover");
    queue.close("a");
    queue.add({ id: "a" });
    vi.advanceTimersByTime(5000);
    expect(queue.getSnapshot()[0].open).toBe(false);
  });

  it("starts a new revision whenever the timer restarts", () => {
    const queue = new ToastQueue();
    queue.add({ id: "a" });
    const first = queue.getSnapshot()[0].revision;
    queue.add({ id: "a" });
    expect(queue.getSnapshot()[0].revision).not.toBe(first);
  });
});

describe("swipe to dismiss", () => {
  it("starts after more than 10 px for touch and more than 2 px otherwise", () => {
    expect(swipeStartBuffer("touch")).toBe(10);
    expect(swipeStartBuffer("mouse")).toBe(2);
    expect(swipeStartBuffer("pen")).toBe(2);
    expect(moveSwipe(beginSwipe(0, 0, "touch"), 10, 0).swiping).toBe(false);
    expect(moveSwipe(beginSwipe(0, 0, "touch"), 11, 0).swiping).toBe(true);
    expect(moveSwipe(beginSwipe(0, 0, "mouse"), 2, 0).swiping).toBe(false);
    expect(moveSwipe(beginSwipe(0, 0, "mouse"), 3, 0).swiping).toBe(true);
  });

  it("only swipes to the right", () => {
    const left = moveSwipe(beginSwipe(100, 0, "mouse"), 20, 0);
    expect(left.swiping).toBe(false);
    expect(endSwipe(left)).toBe("none");
  });

  it("treats a mostly vertical movement as scrolling", () => {
    expect(moveSwipe(beginSwipe(0, 0, "touch"), 12, 40).swiping).toBe(false);
  });

  it("does not follow the pointer back past the starting point", () => {
    const started = moveSwipe(beginSwipe(0, 0, "mouse"), 30, 0);
    expect(moveSwipe(started, -40, 0).delta).toBe(0);
  });

  it("dismisses on release after 50 px and snaps back before", () => {
    const start = beginSwipe(0, 0, "touch");
    expect(endSwipe(moveSwipe(moveSwipe(start, 20, 0), 49, 0))).toBe("cancel");
    expect(endSwipe(moveSwipe(moveSwipe(start, 20, 0), 50, 0))).toBe("dismiss");
  });

  it("treats a click that barely moves as no swipe at all", () => {
    expect(endSwipe(moveSwipe(beginSwipe(0, 0, "mouse"), 1, 1))).toBe("none");
  });
});
