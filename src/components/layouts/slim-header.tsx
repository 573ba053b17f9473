import { ArrowLeftOutlined } from "@ant-design/icons";
import { Button, Flex, theme } from "antd";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { BrandMark } from "../brand";
import { Title } from "../text";

/**
 * The one-line header of full-screen ("no layout") portal pages: brand, a way back, page actions.
 * `home` is where the brand leads: the dashboard for signed-in pages, the landing for pages that
 * visitors open (a visitor has no dashboard).
 */
export function SlimHeader({
  back = "/dashboard",
  home = "/dashboard",
  children,
}: {
  back?: string;
  home?: string;
  children?: ReactNode;
}) {
  const { token } = theme.useToken();
  return (
    <Flex
      className="slim-header"
      align="center"
      gap={16}
      style={{
        height: 48,
        padding: "0 16px",
        borderBottom: `1px solid ${token.colorBorderSecondary}`,
        background: token.colorBgElevated,
      }}
    >
      <Link to={back} aria-label="Back to the portal">
        <Button type="text" icon={<ArrowLeftOutlined />} />
      </Link>
      <BrandMark to={home} />
      {/* May shrink below its content, so a long title ellipses instead of pushing the page sideways on a phone. */}
      <Flex flex={1} justify="flex-end" align="center" gap={8} style={{ minWidth: 0 }}>
        {children}
      </Flex>
    </Flex>
  );
}

/**
 * The page's title in the slim header, cut to one line by CSS, the whole of it as a tooltip. Not
 * antd's `ellipsis`: that measures the heading in a layout effect, which forced the page's style and
 * layout in the middle of each commit while a data log loaded (a third of those tasks on a phone).
 */
export function SlimTitle({ children, testId }: { children: string; testId?: string }) {
  return (
    <Title
      level={1}
      title={children}
      data-testid={testId}
      style={{
        maxWidth: 480,
        minWidth: 0,
        margin: 0,
        fontSize: 16,
        overflow: "hidden",
        whiteSpace: "nowrap",
        textOverflow: "ellipsis",
      }}
    >
      {children}
    </Title>
  );
}

/** A full-screen page: slim header on top, content filling the rest. */
export function FullScreenPage({ actions, children }: { actions?: ReactNode; children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <Flex vertical style={{ minHeight: "100vh", background: token.colorBgLayout }}>
      <SlimHeader>{actions}</SlimHeader>
      <div style={{ padding: 24, flex: 1 }}>{children}</div>
    </Flex>
  );
}
