// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { LogComputedDescriptor } from "../../../../../../contracts/data-logs";
import { ComputedChannels } from "../../../../../../src/resources/data-logs/analysis/computed-channels";

const boost: LogComputedDescriptor = {
  id: "1",
  name: "Boost",
  unit: "psi",
  expression: "(map - amb_press) * 0.145",
  decimals: 1,
  variables: ["map", "amb_press"],
};
const afr: LogComputedDescriptor = {
  id: "2",
  name: "AFR",
  unit: "",
  expression: "lambda * 14.7 + egt * 0",
  decimals: 2,
  variables: ["lambda", "egt"],
};

// jsdom has no matchMedia, which antd's responsive list asks; a screen that matches no query.
window.matchMedia = (query: string) =>
  ({
    media: query,
    matches: false,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
  }) as unknown as MediaQueryList;

const button = (name: string) => screen.getByRole<HTMLButtonElement>("button", { name });

afterEach(cleanup);

describe("computed channels from the catalogue", () => {
  it("offers a descriptor whose channels the log has, and adds it as written", async () => {
    const onAdd = vi.fn(async () => null);
    render(<ComputedChannels descriptors={[boost, afr]} variables={["map", "amb_press", "egt"]} onAdd={onAdd} />);
    const add = button("Add Boost");
    expect(add.disabled).toBe(false);
    fireEvent.click(add);
    await waitFor(() => expect(onAdd).toHaveBeenCalledWith(boost));
  });

  it("shows a descriptor the log cannot feed disabled, naming the missing channels", () => {
    render(<ComputedChannels descriptors={[boost, afr]} variables={["map", "egt"]} onAdd={vi.fn()} />);
    expect(button("Add Boost").disabled).toBe(true);
    expect(screen.getByText("Needs amb_press, not in this log")).toBeTruthy();
    expect(button("Add AFR").disabled).toBe(true);
    expect(screen.getByText("Needs lambda, not in this log")).toBeTruthy();
  });
});
