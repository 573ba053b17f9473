/**
 * The element antd's App draws around the app (its base text colour, size, line height and font,
 * through App's own style hook), without App's message, notification and modal holders: those
 * bring antd's Modal, message and notification code (about 25 kB gzipped) to every first load,
 * and only portal pages ask for them (`App.useApp()`), so the portal provides them
 * (src/portal-app.tsx, an App that draws no element of its own).
 */
import useAppStyle from "antd/es/app/style";
import type { ReactNode } from "react";
import { classList, useAntdStyle } from "./antd-drawing";

export function AppFrame({ children }: { children: ReactNode }) {
  const { prefixCls, wrapCSSVar, hashId, cssVarCls } = useAntdStyle("app", useAppStyle);
  return wrapCSSVar(<div className={classList(hashId, prefixCls, cssVarCls)}>{children}</div>);
}
