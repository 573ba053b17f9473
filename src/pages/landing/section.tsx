import type { ReactNode } from "react";
import "./prose.css";
import { Paragraph, Title } from "../../components/text";

/** A public page's heading and body text, sized for reading. */
export function LandingSection({ title, lead, children }: { title: string; lead?: ReactNode; children?: ReactNode }) {
  return (
    <article className="prose" style={{ maxWidth: 860 }}>
      <Title level={1}>{title}</Title>
      {lead && <Paragraph style={{ fontSize: 18 }}>{lead}</Paragraph>}
      {children}
    </article>
  );
}
