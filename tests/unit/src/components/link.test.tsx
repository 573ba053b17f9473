// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Link } from "../../../../src/components/link";
import { registerResources } from "../../../../src/routing/registry";
import type { PageComponent, ResourceDefinition } from "../../../../src/routing/types";

const page = () =>
  Object.assign(() => null, { preload: vi.fn(async () => undefined) }) as unknown as PageComponent & {
    preload: ReturnType<typeof vi.fn>;
  };
const tunes = page();
const logs = page();
const definitions = [
  {
    name: "my-tunes",
    guard: "signed-in",
    layout: "portal",
    list: { path: "/my-tunes", component: tunes },
    meta: { label: "My tunes" },
  },
  {
    name: "data-logs",
    guard: "signed-in",
    layout: "portal",
    list: { path: "/tuning-tools/data-logs", component: logs },
    meta: { label: "Data logs" },
  },
] as unknown as ResourceDefinition[];

/** An observer that reports every element it is given as in view at once, as a link on screen would be. */
class InViewObserver {
  constructor(private readonly callback: IntersectionObserverCallback) {}
  observe(target: Element) {
    this.callback([{ target, isIntersecting: true } as IntersectionObserverEntry], this as never);
  }
  unobserve() {}
  disconnect() {}
}

beforeEach(() => {
  registerResources(definitions, { dealer: { name: "dealer" }, admin: { name: "admin" } });
  tunes.preload.mockClear();
  logs.preload.mockClear();
  vi.stubGlobal("IntersectionObserver", InViewObserver);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const links = () =>
  render(
    <MemoryRouter>
      <Link to="/my-tunes">My tunes</Link>
      <Link to="/tuning-tools/data-logs">Data logs</Link>
      <Link to="https://example.com/my-tunes">Elsewhere</Link>
    </MemoryRouter>,
  );

describe("a link loads its page's code when the user shows the intent to follow it", () => {
  it("loads nothing for links that are merely on screen", async () => {
    links();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(tunes.preload).not.toHaveBeenCalled();
    expect(logs.preload).not.toHaveBeenCalled();
  });

  it("loads the page's code when hovered, focused or touched", () => {
    links();
    fireEvent.mouseEnter(screen.getByText("My tunes"));
    expect(tunes.preload).toHaveBeenCalledTimes(1);
    fireEvent.focus(screen.getByText("Data logs"));
    expect(logs.preload).toHaveBeenCalledTimes(1);
    fireEvent.touchStart(screen.getByText("My tunes"));
    expect(tunes.preload).toHaveBeenCalledTimes(2);
  });

  it("loads nothing for a link to another site or a path no route knows", () => {
    render(
      <MemoryRouter>
        <Link to="https://example.com/my-tunes">Elsewhere</Link>
        <Link to="/nowhere">Nowhere</Link>
      </MemoryRouter>,
    );
    fireEvent.mouseEnter(screen.getByText("Elsewhere"));
    fireEvent.mouseEnter(screen.getByText("Nowhere"));
    expect(tunes.preload).not.toHaveBeenCalled();
    expect(logs.preload).not.toHaveBeenCalled();
  });

  it("keeps a failed load from surfacing: the navigation reports it", async () => {
    tunes.preload.mockRejectedValueOnce(new Error("chunk failed"));
    links();
    fireEvent.mouseEnter(screen.getByText("My tunes"));
    await Promise.resolve();
    expect(tunes.preload).toHaveBeenCalledTimes(1);
  });
});
