/**
 * A bordered panel drawn exactly as antd's Card draws one with a body only (the same markup,
 * classes and style rules, through Card's own style hook). antd's Card imports Tabs for its tabbed
 * header (about 15 kB gzipped), which the public pages' panels never show. Anything with a
 * header, tabs, actions or loading uses antd's Card.
 */
import useCardStyle from "antd/es/card/style";
import type { CSSProperties, ReactNode } from "react";
import { classList, useAntdStyle } from "./antd-drawing";

export function Panel({ style, children }: { style?: CSSProperties; children?: ReactNode }) {
  const { prefixCls, wrapCSSVar, hashId, cssVarCls } = useAntdStyle("card", useCardStyle);
  return wrapCSSVar(
    <div className={classList(prefixCls, `${prefixCls}-bordered`, hashId, cssVarCls)} style={style}>
      <div className={`${prefixCls}-body`}>{children}</div>
    </div>,
  );
}
