import { Alert, Anchor, Col, Row, Typography } from "antd";
import { Fragment, type MouseEvent, type ReactNode, useMemo } from "react";
import { useParams } from "react-router";
import { docsIndex } from "../../components/layouts/docs-layout";
import { Link } from "../../components/link";
import { type Block, type Inline, parseMarkdown, tableOfContents } from "../../lib/markdown";
import { NotFoundPage } from "../errors/not-found";
import "../landing/prose.css";

const sources = import.meta.glob<string>("../../../docs/*.md", { query: "?raw", import: "default", eager: true });

function documentFor(slug: string): string | undefined {
  return Object.entries(sources).find(([path]) => path.endsWith(`/${slug}.md`))?.[1];
}

function renderInline(parts: Inline[]): ReactNode {
  return parts.map((part, index) => {
    switch (part.kind) {
      case "code":
        return <code key={index}>{part.text}</code>;
      case "strong":
        return <strong key={index}>{part.text}</strong>;
      case "link":
        return part.href.startsWith("/") ? (
          <Link key={index} to={part.href}>
            {part.text}
          </Link>
        ) : (
          <a key={index} href={part.href} target={part.href.startsWith("#") ? undefined : "_blank"} rel="noreferrer">
            {part.text}
          </a>
        );
      default:
        return <Fragment key={index}>{part.text}</Fragment>;
    }
  });
}

function renderBlock(block: Block, index: number): ReactNode {
  switch (block.kind) {
    case "heading":
      return (
        <Typography.Title key={index} level={block.level} id={block.id} style={{ scrollMarginTop: 80 }}>
          {block.text}
        </Typography.Title>
      );
    case "list": {
      const List = block.ordered ? "ol" : "ul";
      return (
        <List key={index}>
          {block.items.map((item, itemIndex) => (
            <li key={itemIndex}>{renderInline(item)}</li>
          ))}
        </List>
      );
    }
    case "code":
      return (
        <pre key={index} style={{ overflowX: "auto" }}>
          <code>{block.text}</code>
        </pre>
      );
    case "note":
      return (
        <Alert key={index} type="warning" showIcon message={renderInline(block.inline)} style={{ margin: "16px 0" }} />
      );
    default:
      return <Typography.Paragraph key={index}>{renderInline(block.inline)}</Typography.Paragraph>;
  }
}

/**
 * Jumps to the heading at once. antd's Anchor would animate the scroll for 450 ms, ignoring a
 * wish for reduced motion and pulling the page back while the reader scrolls meanwhile; it still
 * marks the section in view (a last short section that cannot reach the top is not marked, as in
 * most documentation sites).
 */
function jumpToHeading(event: MouseEvent<HTMLElement>) {
  const link = (event.target as Element).closest<HTMLAnchorElement>('a[href^="#"]');
  const heading = link && document.getElementById(decodeURIComponent(link.hash.slice(1)));
  if (!heading) return;
  event.preventDefault();
  event.stopPropagation();
  heading.scrollIntoView();
  window.history.pushState(null, "", link.hash);
}

/** A document from docs/, with its table of contents beside it on wide screens and above it on narrow ones. */
export function DocsPage() {
  const { slug = "" } = useParams();
  const source = documentFor(slug);
  const known = docsIndex.some((doc) => doc.slug === slug);
  const blocks = useMemo(() => (source ? parseMarkdown(source) : []), [source]);
  if (!source || !known) return <NotFoundPage />;
  const contents = tableOfContents(blocks);
  return (
    <Row gutter={[{ xs: 16, md: 32 }, 16]} wrap>
      <Col xs={{ span: 24, order: 2 }} lg={{ span: 18, order: 1 }}>
        <article className="prose">{blocks.map(renderBlock)}</article>
      </Col>
      {contents.length > 0 && (
        <Col xs={{ span: 24, order: 1 }} lg={{ span: 6, order: 2 }}>
          <nav aria-label="On this page" onClickCapture={jumpToHeading}>
            <Typography.Text strong>On this page</Typography.Text>
            <Anchor
              affix={false}
              offsetTop={80}
              items={contents.map((heading) => ({
                key: heading.id,
                href: `#${heading.id}`,
                title: heading.level === 3 ? <span style={{ paddingLeft: 12 }}>{heading.text}</span> : heading.text,
              }))}
            />
          </nav>
        </Col>
      )}
    </Row>
  );
}
