// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { Checkbox } from "antd";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ChannelPicker } from "../../../../../../src/resources/data-logs/analysis/channel-picker";
import type { ChartChannel } from "../../../../../../src/resources/data-logs/analysis/channels";

const channel = (id: string, name: string, unit: string): ChartChannel => ({
  id,
  name,
  unit,
  min: 0,
  max: 1,
  mean: 0.5,
});
const channels = [
  channel("rpm", "Engine speed", "rpm"),
  channel("map", "Boost", "kPa"),
  channel("iat", "Intake air", "°C"),
];

afterEach(cleanup);

function renderPicker(charted: string[], onToggle = vi.fn()) {
  render(
    <ChannelPicker channels={channels} charted={new Set(charted)} colourOf={() => "#c7031e"} onToggle={onToggle} />,
  );
  return onToggle;
}
const box = (name: string) =>
  within(screen.getByRole("group", { name: "Channels" })).getByRole<HTMLInputElement>("checkbox", { name });
/**
 * An element's classes and its children's, as a tree of strings: what antd's style rules select on.
 * Less antd's wave target, which only its click wave looks for (the light checkbox has no wave).
 */
const classTree = (element: Element): unknown => [
  element.tagName,
  [...element.classList]
    .filter((name) => name !== "ant-wave-target")
    .sort()
    .join(" "),
  [...element.children].map(classTree),
];

describe("the data log's channel list", () => {
  it("names each channel's checkbox and ticks the charted ones", () => {
    renderPicker(["map"]);
    expect(box("Boost").checked).toBe(true);
    expect(box("Engine speed").checked).toBe(false);
    expect(box("Intake air").checked).toBe(false);
  });

  it("toggles a channel by its id when its checkbox or its name is clicked", () => {
    const onToggle = renderPicker([]);
    fireEvent.click(box("Boost"));
    fireEvent.click(screen.getByText("Intake air"));
    expect(onToggle.mock.calls).toEqual([["map"], ["iat"]]);
  });

  it("draws each checkbox with the elements and classes of antd's Checkbox, checked and not", () => {
    renderPicker(["map"]);
    const ours = (name: string) => box(name).closest("label")!;
    const { container } = render(
      <div>
        <Checkbox checked onChange={() => undefined}>
          x
        </Checkbox>
        <Checkbox checked={false} onChange={() => undefined}>
          y
        </Checkbox>
      </div>,
    );
    const [checked, unchecked] = container.querySelectorAll("label");
    // The label's own content differs (the channel's colour mark); the checkbox and the label's wrapper do not.
    const withoutLabelContent = (label: Element) => {
      const copy = label.cloneNode(true) as Element;
      copy.querySelector(".ant-checkbox-label")!.replaceChildren();
      return classTree(copy);
    };
    expect(withoutLabelContent(ours("Boost"))).toEqual(withoutLabelContent(checked));
    expect(withoutLabelContent(ours("Engine speed"))).toEqual(withoutLabelContent(unchecked));
  });

  it("finds channels by name and says when none matches", () => {
    renderPicker([]);
    fireEvent.change(screen.getByRole("searchbox", { name: "Search channels" }), { target: { value: "boo" } });
    expect(screen.queryByRole("checkbox", { name: "Engine speed" })).toBeNull();
    expect(box("Boost")).toBeTruthy();
    fireEvent.change(screen.getByRole("searchbox", { name: "Search channels" }), { target: { value: "lambda" } });
    expect(screen.getByText("No channel matches “lambda”.")).toBeTruthy();
  });
});
