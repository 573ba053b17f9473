// @vitest-environment jsdom
import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("the window's height for views sized to the screen", () => {
  it("is read when the app loads and on each resize, never while a view renders or mounts", async () => {
    Object.defineProperty(window, "innerHeight", { configurable: true, value: 700 });
    const { useViewportHeight } = await import("../../../../../src/components/layouts/viewport-height");
    const read = vi.spyOn(window, "innerHeight", "get").mockReturnValue(700);
    function Height() {
      return <span data-testid="height">{useViewportHeight()}</span>;
    }
    const view = render(<Height />);
    expect(screen.getByTestId("height").textContent).toBe("700");
    view.rerender(<Height />);
    expect(read).not.toHaveBeenCalled();

    read.mockReturnValue(500);
    act(() => void window.dispatchEvent(new Event("resize")));
    expect(screen.getByTestId("height").textContent).toBe("500");
    expect(read).toHaveBeenCalledTimes(1);

    // A phone turned while no view listened: the next view that shows sees the new height.
    view.unmount();
    read.mockReturnValue(390);
    act(() => void window.dispatchEvent(new Event("resize")));
    render(<Height />);
    expect(screen.getByTestId("height").textContent).toBe("390");
  });
});
