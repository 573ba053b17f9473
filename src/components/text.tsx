/**
 * Headings, paragraphs and inline text drawn exactly as antd's Typography draws them (the same
 * element with the same classes and the same style rules), without its editing, copying and
 * ellipsis machinery: antd's Typography.Title, .Paragraph and .Text bring a text area, a tooltip
 * and a measuring pass along (about 30 kB gzipped), which the public pages' first load does not need.
 * Pages that edit, copy or truncate text use antd's Typography.
 */
import { ConfigProvider } from "antd";
import TypographyElement from "antd/es/typography/Typography";
import { type ComponentType, type CSSProperties, type HTMLAttributes, type ReactNode, useContext } from "react";

// antd's element takes the tag to render as `component`; its published props do not list it.
const Element = TypographyElement as unknown as ComponentType<HTMLAttributes<HTMLElement> & { component: string }>;

interface TextProps {
  id?: string;
  /** The whole text, as a tooltip: where a title is cut to one line (SlimTitle). */
  title?: string;
  style?: CSSProperties;
  children?: ReactNode;
  "data-testid"?: string;
}

/** A heading of the page's outline, h1 to h5, as antd's Typography.Title. */
export function Title({ level = 1, ...props }: TextProps & { level?: 1 | 2 | 3 | 4 | 5 }) {
  return <Element component={`h${level}`} {...props} />;
}

/** A paragraph, as antd's Typography.Paragraph. */
export function Paragraph(props: TextProps) {
  return <Element component="div" {...props} />;
}

/** Inline text, as antd's Typography.Text; `secondary` in the quieter colour. */
export function Text({ type, ...props }: TextProps & { type?: "secondary" }) {
  const prefixCls = useContext(ConfigProvider.ConfigContext).getPrefixCls("typography");
  return (
    <Element component="span" className={type === "secondary" ? `${prefixCls}-secondary` : undefined} {...props} />
  );
}
