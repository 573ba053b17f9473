import type { GlobalToken } from "antd";
import type { CSSProperties } from "react";

/**
 * The portal header's bar: the header itself (portal-layout.tsx) and the build's drawing of the
 * portal (portal-shell.tsx), which must show it where and as the header will be.
 */
export function portalHeaderStyle(token: GlobalToken): CSSProperties {
  return {
    background: token.colorBgElevated,
    display: "flex",
    justifyContent: "flex-end",
    alignItems: "center",
    gap: 12,
    height: 64,
    position: "sticky",
    top: 0,
    zIndex: 10,
    borderBottom: `1px solid ${token.colorBorderSecondary}`,
  };
}
