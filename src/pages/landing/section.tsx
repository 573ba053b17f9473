import { Typography } from "antd";
import type { ReactNode } from "react";
import "./prose.css";

/** A public page's heading and body text, sized for reading. */
export function LandingSection({ title, lead, children }: { title: string; lead?: ReactNode; children?: ReactNode }) {
  return (
    <article className="prose" style={{ maxWidth: 860 }}>
      <Typography.Title level={1}>{title}</Typography.Title>
      {lead && <Typography.Paragraph style={{ fontSize: 18 }}>{lead}</Typography.Paragraph>}
      {children}
    </article>
  );
}
