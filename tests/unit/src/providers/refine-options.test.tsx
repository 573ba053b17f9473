// @vitest-environment jsdom
import { type DataProvider, Refine, useList } from "@refinedev/core";
import { QueryClient } from "@tanstack/react-query";
import { act, cleanup, render } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { refineOptions } from "../../../../src/providers/refine-options";

/** A data provider whose lists never answer: a query that stays loading, as on a slow network. */
const neverAnswers = {
  getList: () => new Promise(() => undefined),
  getApiUrl: () => "/api/v1",
} as unknown as DataProvider;

/** Five seconds, a second at a time: React would batch the updates of one long jump into one render. */
async function waitFiveSeconds() {
  for (let second = 0; second < 5; second++) await act(async () => vi.advanceTimersByTimeAsync(1_000));
}

/** Renders a component with one loading list and returns how many times it has rendered. */
function renderLoadingList(options: Parameters<typeof Refine>[0]["options"]) {
  let renders = 0;
  function Page() {
    renders += 1;
    useList({ resource: "data-logs" });
    return null;
  }
  render(
    <Refine dataProvider={neverAnswers} options={options}>
      <Page />
    </Refine>,
  );
  return () => renders;
}

describe("the portal's Refine options", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it("leave a page with a query still loading alone: no render each second while it waits", async () => {
    const renders = renderLoadingList(refineOptions(new QueryClient()));
    await act(async () => vi.advanceTimersByTimeAsync(100));
    const settled = renders();
    await waitFiveSeconds();
    expect(renders()).toBe(settled);
  });

  it("differ from Refine's defaults, under which the same page renders again each second", async () => {
    const renders = renderLoadingList({ disableTelemetry: true, reactQuery: { clientConfig: new QueryClient() } });
    await act(async () => vi.advanceTimersByTimeAsync(100));
    const settled = renders();
    await waitFiveSeconds();
    expect(renders() - settled).toBeGreaterThanOrEqual(5);
  });
});
