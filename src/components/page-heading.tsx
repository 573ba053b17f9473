import { Flex, Typography } from "antd";
import type { ReactNode } from "react";

/**
 * A portal page's title with its subtitle and actions (src/components/page-frame.tsx). Apart from
 * the frame so that the build's drawing of the portal (src/components/layouts/portal-shell.tsx)
 * shows the title exactly where and as the page will.
 */
export function PageHeading({ title, subtitle, extra }: { title: ReactNode; subtitle?: ReactNode; extra?: ReactNode }) {
  return (
    <Flex justify="space-between" align="start" wrap gap={12}>
      <div>
        <Typography.Title level={2} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        {subtitle && <Typography.Text type="secondary">{subtitle}</Typography.Text>}
      </div>
      {/* Wraps on a phone: three buttons side by side are wider than 343 px. */}
      {extra && (
        <Flex gap={8} wrap>
          {extra}
        </Flex>
      )}
    </Flex>
  );
}
