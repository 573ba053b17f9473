// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { SlimTitle } from "../../../../../src/components/layouts/slim-header";

afterEach(cleanup);

describe("a full-screen page's title", () => {
  it("is the page's heading, cut to one line by its style, with the whole title as its tooltip and nothing measured", () => {
    const title = "2026-11-29 third gear pull, 98 RON, boost target raised to 1.6 bar after the intercooler swap";
    render(<SlimTitle testId="log-title">{title}</SlimTitle>);
    const heading = screen.getByRole("heading", { level: 1, name: title });
    expect(heading).toHaveProperty("title", title);
    expect(heading.getAttribute("data-testid")).toBe("log-title");
    expect(heading.style.whiteSpace).toBe("nowrap");
    expect(heading.style.textOverflow).toBe("ellipsis");
    expect(heading.style.overflow).toBe("hidden");
    // antd's measured ellipsis would add its classes and a hidden copy of the text to measure.
    expect(heading.className).not.toMatch(/ellipsis/);
    expect(heading.textContent).toBe(title);
  });
});
