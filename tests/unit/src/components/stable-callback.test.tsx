// @vitest-environment jsdom
import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { useStableCallback } from "../../../../src/components/stable-callback";

afterEach(cleanup);

describe("a stable callback", () => {
  it("keeps its identity across renders and calls the callback of the latest render", () => {
    const seen: Array<(suffix: string) => string> = [];
    function Holder({ name }: { name: string }) {
      seen.push(useStableCallback((suffix: string) => `${name}${suffix}`));
      return null;
    }
    const { rerender } = render(<Holder name="boost" />);
    expect(seen[0]("!")).toBe("boost!");
    rerender(<Holder name="lambda" />);
    expect(seen[1]).toBe(seen[0]);
    expect(seen[0]("?")).toBe("lambda?");
  });
});
