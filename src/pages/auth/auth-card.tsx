import { Card, Flex, Typography } from "antd";
import type { ReactNode } from "react";
import { BrandMark } from "../../components/brand";
import "../landing/prose.css";

/** The centred card the account pages (no layout) share. */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Flex vertical align="center" gap={24} style={{ minHeight: "100vh", padding: "48px 16px" }}>
      <BrandMark />
      <Card className="prose" style={{ width: "100%", maxWidth: 440 }}>
        <Typography.Title level={1} style={{ marginTop: 0, fontSize: 30 }}>
          {title}
        </Typography.Title>
        {children}
      </Card>
    </Flex>
  );
}
