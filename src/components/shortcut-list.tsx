/** The list the "?" shortcut shows (src/components/keyboard-shortcuts.tsx), loaded when first asked for. */
import { Descriptions, Typography } from "antd";
import { TOAST_HOTKEY } from "../lib/toast-queue";

const SHORTCUTS = [
  { keys: "?", does: "Show these shortcuts" },
  { keys: "Esc", does: "Close the topmost dialog" },
  { keys: TOAST_HOTKEY, does: "Move to the notifications" },
];

export function ShortcutList() {
  return (
    <Descriptions
      column={1}
      size="small"
      bordered
      items={SHORTCUTS.map((shortcut) => ({
        key: shortcut.keys,
        label: <Typography.Text keyboard>{shortcut.keys}</Typography.Text>,
        children: shortcut.does,
      }))}
    />
  );
}
