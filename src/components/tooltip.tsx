/**
 * antd's Tooltip with the portal's timing (src/lib/tooltip-delay.ts): opens after 700 ms, or at
 * once within 300 ms of another tooltip, so moving along a toolbar reads each button without
 * waiting again. Use it instead of antd's Tooltip; every antd prop passes through, and an
 * explicit `mouseEnterDelay` still wins. antd's ConfigProvider has no setting for tooltip delays,
 * which is why this wrapper is the one place they are set.
 */
import { Tooltip as AntdTooltip, type TooltipProps } from "antd";
import { useSyncExternalStore } from "react";
import { TooltipDelay } from "../lib/tooltip-delay";

/** One timing for the whole tab: the skip window is shared between neighbours. */
export const tooltipDelay = new TooltipDelay();

export function Tooltip({ onOpenChange, mouseEnterDelay, ...props }: TooltipProps) {
  useSyncExternalStore(tooltipDelay.subscribe, tooltipDelay.getSnapshot, tooltipDelay.getSnapshot);
  return (
    <AntdTooltip
      {...props}
      // antd takes seconds.
      mouseEnterDelay={mouseEnterDelay ?? tooltipDelay.delayMs() / 1000}
      onOpenChange={(open) => {
        if (open) tooltipDelay.opened();
        else tooltipDelay.closed();
        onOpenChange?.(open);
      }}
    />
  );
}
