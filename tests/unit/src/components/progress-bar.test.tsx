// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ProgressBar } from "../../../../src/components/progress-bar";

afterEach(cleanup);

describe("ProgressBar", () => {
  it("is indeterminate without a value: no aria-valuenow, no number", () => {
    render(<ProgressBar label="Preparing" />);
    const bar = screen.getByRole("progressbar", { name: "Preparing" });
    expect(bar.dataset.status).toBe("indeterminate");
    expect(bar.hasAttribute("aria-valuenow")).toBe(false);
    expect(bar.textContent).toBe("");
  });

  it("is loading below the maximum and complete at it", () => {
    const { rerender } = render(<ProgressBar label="Uploading" value={42.5} />);
    const bar = screen.getByRole("progressbar", { name: "Uploading" });
    expect([bar.dataset.status, bar.getAttribute("aria-valuenow"), bar.getAttribute("aria-busy")]).toEqual([
      "loading",
      "42.5",
      "true",
    ]);
    expect(bar.textContent).toBe("42 %");
    rerender(<ProgressBar label="Uploading" value={100} />);
    expect([bar.dataset.status, bar.getAttribute("aria-busy")]).toEqual(["complete", "false"]);
  });

  it("takes another maximum", () => {
    render(<ProgressBar label="Rows" value={5} max={20} />);
    const bar = screen.getByRole("progressbar", { name: "Rows" });
    expect([bar.getAttribute("aria-valuemax"), bar.textContent]).toEqual(["20", "25 %"]);
  });

  it("throws for a value outside 0..max", () => {
    expect(() => render(<ProgressBar label="Broken" value={101} />)).toThrow(
      "Progress value must be between 0 and 100, got 101.",
    );
  });
});
