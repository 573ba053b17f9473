import { Typography } from "antd";
import type { ReactNode } from "react";
import { useParams } from "react-router";
import { docsIndex } from "../../components/layouts/docs-layout";
import { NotFoundPage } from "../errors/not-found";

const sources = import.meta.glob<string>("../../../docs/*.md", { query: "?raw", import: "default", eager: true });

function documentFor(slug: string): string | undefined {
  return Object.entries(sources).find(([path]) => path.endsWith(`/${slug}.md`))?.[1];
}

/** Renders the small Markdown subset our docs use: headings, paragraphs, lists and inline code. */
function renderMarkdown(source: string): ReactNode[] {
  const inline = (text: string) =>
    text.split(/(`[^`]+`)/g).map((part, index) => (part.startsWith("`") ? <code key={index}>{part.slice(1, -1)}</code> : part));
  return source
    .trim()
    .split(/\n{2,}/)
    .map((block, index) => {
      const heading = /^(#{1,4})\s+(.*)$/.exec(block);
      if (heading) {
        const level = Math.min(heading[1].length, 4) as 1 | 2 | 3 | 4;
        const text = heading[2];
        return (
          <Typography.Title key={index} level={level} id={text.toLowerCase().replace(/[^a-z0-9]+/g, "-")}>
            {text}
          </Typography.Title>
        );
      }
      if (/^[-*]\s/.test(block)) {
        return <ul key={index}>{block.split("\n").map((line, item) => <li key={item}>{inline(line.replace(/^[-*]\s+/, ""))}</li>)}</ul>;
      }
      if (/^\d+\.\s/.test(block)) {
        return <ol key={index}>{block.split("\n").map((line, item) => <li key={item}>{inline(line.replace(/^\d+\.\s+/, ""))}</li>)}</ol>;
      }
      return <Typography.Paragraph key={index}>{inline(block.replace(/\n/g, " "))}</Typography.Paragraph>;
    });
}

export function DocsPage() {
  const { slug = "" } = useParams();
  const source = documentFor(slug);
  if (!source || !docsIndex.some((doc) => doc.slug === slug)) return <NotFoundPage />;
  return <article>{renderMarkdown(source)}</article>;
}
