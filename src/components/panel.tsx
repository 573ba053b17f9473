/**
 * A bordered panel drawn exactly as antd's Card draws one with a body only (the same markup,
 * classes and style rules, through Card's own style hook). antd's Card imports Tabs for its tabbed
 * header (about 15 kB gzipped), which the public pages' panels never show. Anything with a
 * header, tabs, actions or loading uses antd's Card.
 */
import { ConfigProvider } from "antd";
import useCardStyle from "antd/es/card/style";
import { type CSSProperties, type ReactNode, useContext } from "react";

export function Panel({ style, children }: { style?: CSSProperties; children?: ReactNode }) {
  const prefixCls = useContext(ConfigProvider.ConfigContext).getPrefixCls("card");
  const [wrapCSSVar, hashId, cssVarCls] = useCardStyle(prefixCls);
  return wrapCSSVar(
    <div className={[prefixCls, `${prefixCls}-bordered`, hashId, cssVarCls].filter(Boolean).join(" ")} style={style}>
      <div className={`${prefixCls}-body`}>{children}</div>
    </div>,
  );
}
