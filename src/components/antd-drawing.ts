/**
 * For drawing an antd component's markup without the component (src/components/app-frame.tsx,
 * panel.tsx, step-list.tsx, paragraph-skeleton.tsx): its class prefix from the ConfigProvider and
 * the result of its own style hook, which writes (or finds in the build's sheet) its style rules.
 */
import { ConfigProvider } from "antd";
import { type ReactElement, useContext } from "react";

type StyleHook = (prefixCls: string) => readonly [(node: ReactElement) => ReactElement, string, string];

export function useAntdStyle(component: string, useStyle: StyleHook) {
  const prefixCls = useContext(ConfigProvider.ConfigContext).getPrefixCls(component);
  const [wrapCSSVar, hashId, cssVarCls] = useStyle(prefixCls);
  return { prefixCls, wrapCSSVar, hashId, cssVarCls };
}

/** A class attribute from names, the empty ones left out, in the order antd writes them. */
export const classList = (...names: (string | false | undefined)[]): string => names.filter(Boolean).join(" ");
