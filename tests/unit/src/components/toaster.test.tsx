// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { Toaster, toasts } from "../../../../src/components/toaster";

function add(...args: Parameters<typeof toasts.add>): string {
  let id = "";
  act(() => {
    id = toasts.add(...args);
  });
  return id;
}

function advance(ms: number): void {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
}

/** The toast showing `text` (the hidden announcers repeat the text, so search the list only). */
function toastItem(text: string): HTMLElement {
  const item = screen.queryAllByRole("listitem").find((candidate) => within(candidate).queryByText(text));
  if (!item) throw new Error(`No toast holds "${text}"`);
  return item;
}

function toastShown(text: string): boolean {
  return screen.queryAllByRole("listitem").some((candidate) => within(candidate).queryByText(text));
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  act(() => {
    for (const toast of toasts.getSnapshot()) toasts.close(toast.id);
    vi.advanceTimersByTime(200);
  });
  cleanup();
  vi.useRealTimers();
});

describe("Toaster region", () => {
  it("is labelled 'Notification' by default", () => {
    render(<Toaster />);
    expect(screen.getByRole("region", { name: "Notification" })).toBeTruthy();
  });

  it("takes another label", () => {
    render(<Toaster label="Alerts" />);
    expect(screen.getByRole("region", { name: "Alerts" })).toBeTruthy();
  });

  it("refuses an empty label", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(() => render(<Toaster label="" />)).toThrow(/non-empty string/);
    errors.mockRestore();
  });

  it("sits fixed at the top right, below the header (so it covers none of its buttons), and stacks toasts with a 16 px gap", () => {
    render(<Toaster />);
    const region = screen.getByRole("region", { name: "Notification" });
    expect(region.style.position).toBe("fixed");
    // The portal's header is 64 px high: the first toast starts 16 px below it.
    expect([region.style.top, region.style.right]).toEqual(["80px", "16px"]);
    expect(region.querySelector("ol")?.style.gap).toBe("16px");
  });

  it("receives focus on F8", () => {
    render(<Toaster />);
    fireEvent.keyDown(window, { key: "F8" });
    expect(document.activeElement).toBe(screen.getByRole("region", { name: "Notification" }));
  });

  it("shows the newest toast first", () => {
    render(<Toaster />);
    add({ title: "Older" });
    add({ title: "Newer" });
    expect(screen.getAllByRole("listitem").map((item) => item.textContent)).toEqual(["Newer", "Older"]);
  });
});

describe("a toast", () => {
  it("shows its title, description and actions, announcing actions by their alternative text", () => {
    const undo = vi.fn();
    render(<Toaster />);
    add({
      title: "Tune deleted",
      description: "Stage 1 for the Golf",
      actions: [{ label: "Undo", altText: "Undo the deletion", onClick: undo }],
    });
    expect(within(toastItem("Tune deleted")).getByText("Stage 1 for the Golf")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Undo the deletion" }));
    expect(undo).toHaveBeenCalledTimes(1);
  });

  it("is announced assertively in the foreground and politely in the background", () => {
    const { container } = render(<Toaster />);
    const assertive = container.querySelector('[aria-live="assertive"]');
    const polite = container.querySelector('[aria-live="polite"]');
    // The live regions exist before any toast, so screen readers notice what is put in them.
    expect([assertive?.textContent, polite?.textContent]).toEqual(["", ""]);
    add({ title: "Urgent", description: "Flash failed" });
    add({ title: "Quiet", type: "background" });
    expect(assertive?.textContent).toBe("Urgent Flash failed");
    expect(polite?.textContent).toBe("Quiet ");
  });

  it("closes by itself after 5000 ms, fading for 200 ms before it is removed", () => {
    render(<Toaster />);
    add({ title: "Saved" });
    advance(4999);
    expect(toastItem("Saved").dataset.state).toBe("open");
    advance(1);
    expect(toastItem("Saved").dataset.state).toBe("closed");
    expect(toastItem("Saved").style.opacity).toBe("0");
    advance(200);
    expect(toastShown("Saved")).toBe(false);
  });

  it("pauses while hovered, then closes with the time that was left", () => {
    render(<Toaster />);
    add({ title: "Hover me" });
    advance(3000);
    fireEvent.mouseEnter(toastItem("Hover me"));
    advance(60_000);
    expect(toastItem("Hover me").dataset.state).toBe("open");
    fireEvent.mouseLeave(toastItem("Hover me"));
    advance(1999);
    expect(toastItem("Hover me").dataset.state).toBe("open");
    advance(1);
    expect(toastItem("Hover me").dataset.state).toBe("closed");
    advance(200);
    expect(toastShown("Hover me")).toBe(false);
  });

  it("pauses while focus is inside it", () => {
    render(<Toaster />);
    add({ title: "Focus me", actions: [{ label: "Open", altText: "Open the tune", onClick: () => {} }] });
    fireEvent.focus(screen.getByRole("button", { name: "Open the tune" }));
    advance(10_000);
    expect(toastItem("Focus me").dataset.state).toBe("open");
    // Moving focus between the toast's own buttons keeps it paused.
    fireEvent.blur(screen.getByRole("button", { name: "Open the tune" }), {
      relatedTarget: screen.getByRole("button", { name: "Close" }),
    });
    advance(10_000);
    expect(toastItem("Focus me").dataset.state).toBe("open");
    fireEvent.blur(screen.getByRole("button", { name: "Close" }), { relatedTarget: document.body });
    advance(5000);
    expect(toastItem("Focus me").dataset.state).toBe("closed");
  });

  it("shows a bar of the time left that pauses with the timer", () => {
    render(<Toaster />);
    add({ title: "Timed" });
    const bar = screen.getByTestId("toast-time-left");
    expect(bar.style.animationDuration).toBe("5000ms");
    expect(bar.style.animationPlayState).toBe("running");
    fireEvent.mouseEnter(toastItem("Timed"));
    expect(screen.getByTestId("toast-time-left").style.animationPlayState).toBe("paused");
  });

  it("has no bar when it stays until closed", () => {
    render(<Toaster />);
    add({ title: "Sticky", duration: Infinity });
    expect(screen.queryByTestId("toast-time-left")).toBeNull();
  });

  it("closes with its close button", () => {
    render(<Toaster />);
    add({ title: "Dismiss me" });
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(toastItem("Dismiss me").dataset.state).toBe("closed");
  });

  it("has no close button when close is false", () => {
    render(<Toaster />);
    add({ title: "No close", close: false });
    expect(screen.queryByRole("button", { name: "Close" })).toBeNull();
  });

  describe("swiped", () => {
    beforeEach(() => {
      // jsdom has no pointer capture; the browser keeps sending moves to the toast with it.
      HTMLElement.prototype.setPointerCapture = vi.fn();
    });

    afterEach(() => {
      delete (HTMLElement.prototype as Partial<HTMLElement>).setPointerCapture;
    });

    it("to the right far enough, is dismissed", () => {
      render(<Toaster />);
      add({ title: "Swipe me" });
      const item = toastItem("Swipe me");
      fireEvent.pointerDown(item, { button: 0, pointerType: "touch", clientX: 0, clientY: 0 });
      fireEvent.pointerMove(item, { pointerType: "touch", clientX: 30, clientY: 0 });
      expect(item.style.transform).toBe("translateX(30px)");
      fireEvent.pointerMove(item, { pointerType: "touch", clientX: 60, clientY: 0 });
      fireEvent.pointerUp(item, { pointerType: "touch", clientX: 60, clientY: 0 });
      expect(item.dataset.state).toBe("closed");
      expect(item.style.transform).toBe("translateX(100%)");
    });

    it("a little, snaps back and keeps counting down", () => {
      render(<Toaster />);
      add({ title: "Almost" });
      const item = toastItem("Almost");
      fireEvent.pointerDown(item, { button: 0, pointerType: "mouse", clientX: 0, clientY: 0 });
      fireEvent.pointerMove(item, { pointerType: "mouse", clientX: 20, clientY: 0 });
      fireEvent.pointerUp(item, { pointerType: "mouse", clientX: 20, clientY: 0 });
      expect(item.dataset.state).toBe("open");
      expect(item.style.transform).toBe("");
      advance(5000);
      expect(item.dataset.state).toBe("closed");
    });
  });
});
