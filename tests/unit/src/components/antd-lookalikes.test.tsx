// @vitest-environment jsdom
/**
 * The first load's light stand-ins for antd's App, Typography, Card, Steps and Skeleton
 * (src/components/app-frame.tsx, text.tsx, panel.tsx, step-list.tsx, paragraph-skeleton.tsx) must
 * draw exactly what antd draws: the same markup and classes, so antd's style rules (and the
 * build's antd stylesheet) apply to them unchanged. An antd upgrade that changes its markup fails here.
 */
import { cleanup, render } from "@testing-library/react";
import { App, Card, ConfigProvider, Skeleton, Steps, Typography } from "antd";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { AppFrame } from "../../../../src/components/app-frame";
import { Panel } from "../../../../src/components/panel";
import { ParagraphSkeleton } from "../../../../src/components/paragraph-skeleton";
import { StepList } from "../../../../src/components/step-list";
import { Paragraph, Text, Title } from "../../../../src/components/text";
import { antdTheme } from "../../../../src/components/theme/antd-theme";

window.matchMedia ??= ((query: string) => ({
  media: query,
  matches: false,
  addEventListener: () => undefined,
  removeEventListener: () => undefined,
  addListener: () => undefined,
  removeListener: () => undefined,
})) as unknown as typeof window.matchMedia;

afterEach(cleanup);

function markup(node: ReactNode, mode: "light" | "dark"): string {
  const { container, unmount } = render(<ConfigProvider theme={antdTheme(mode)}>{node}</ConfigProvider>);
  const html = container.innerHTML;
  unmount();
  return html;
}

const steps = [
  { title: "Connect", description: "Plug in the adapter." },
  { title: "Flash", description: <strong>Never interrupt it.</strong> },
  { title: "Log" },
];

const pairs: [string, ReactNode, ReactNode][] = [
  [
    "an h1",
    <Title id="a">Tune with confidence</Title>,
    <Typography.Title id="a">Tune with confidence</Typography.Title>,
  ],
  [
    "an h2 with a style",
    <Title level={2} style={{ fontSize: 18, marginTop: 0 }}>
      Features
    </Title>,
    <Typography.Title level={2} style={{ fontSize: 18, marginTop: 0 }}>
      Features
    </Typography.Title>,
  ],
  [
    "a paragraph",
    <Paragraph style={{ fontSize: 18 }}>Every checksum is verified.</Paragraph>,
    <Typography.Paragraph style={{ fontSize: 18 }}>Every checksum is verified.</Typography.Paragraph>,
  ],
  ["text", <Text>Plain</Text>, <Typography.Text>Plain</Typography.Text>],
  [
    "secondary text",
    <Text type="secondary">© Tuning Portal</Text>,
    <Typography.Text type="secondary">© Tuning Portal</Typography.Text>,
  ],
  ["a panel", <Panel style={{ height: "100%" }}>Inside</Panel>, <Card style={{ height: "100%" }}>Inside</Card>],
  [
    "the app's frame",
    <AppFrame>
      <p>Page</p>
    </AppFrame>,
    <App>
      <p>Page</p>
    </App>,
  ],
  ["a text placeholder", <ParagraphSkeleton />, <Skeleton active />],
  ["numbered steps", <StepList items={steps} />, <Steps direction="vertical" current={-1} items={steps} />],
];

describe("the light stand-ins draw what antd draws", () => {
  for (const mode of ["light", "dark"] as const)
    for (const [what, ours, antds] of pairs)
      it(`${what} (${mode})`, () => {
        const expected = markup(antds, mode);
        expect(expected).not.toBe("");
        expect(markup(ours, mode)).toBe(expected);
      });
});
