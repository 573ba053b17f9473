import { Breadcrumb } from "@refinedev/antd";
import { Card, Empty, Flex, Typography } from "antd";
import type { ReactNode } from "react";
import { PageHeading } from "./page-heading";

export interface PageFrameProps {
  title: ReactNode;
  subtitle?: ReactNode;
  /** Buttons at the right of the title. */
  extra?: ReactNode;
  children: ReactNode;
}

/** Title, breadcrumb and actions: the frame every portal page shares. */
export function PageFrame({ title, subtitle, extra, children }: PageFrameProps) {
  return (
    <Flex vertical gap={16}>
      <Breadcrumb />
      <PageHeading title={title} subtitle={subtitle} extra={extra} />
      {children}
    </Flex>
  );
}

/** What a page shows while it has nothing to list: says what will appear here and how it gets here. */
export function EmptyState({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Card>
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={
          <Flex vertical gap={4} align="center">
            <Typography.Text strong>{title}</Typography.Text>
            <Typography.Text type="secondary" style={{ maxWidth: 560 }}>
              {children}
            </Typography.Text>
          </Flex>
        }
      >
        {action}
      </Empty>
    </Card>
  );
}
