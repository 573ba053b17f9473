/**
 * The layout menu of the log view: opens a built-in layout, the user's own or the share's, saves
 * the panes on screen under a name for this logger, and removes one of the user's layouts.
 */
import { AppstoreOutlined, DownOutlined } from "@ant-design/icons";
import { Alert, App, Button, Dropdown, Input, type MenuProps, Modal, Typography } from "antd";
import { useState } from "react";
import { LAYOUT_NAME_MAX } from "../../../../contracts/data-log-layout-limits";
import type { DataLogLayout } from "../../../../contracts/data-log-layouts";
import { type LayoutChoice, panesIn, useSaveLayout } from "./layouts";

interface LayoutMenuProps {
  choices: LayoutChoice[];
  /** The layout the panes on screen are, if any. */
  shown: LayoutChoice | undefined;
  panes: string[][];
  known: ReadonlySet<string>;
  onPanes: (panes: string[][]) => void;
  /** The logger's format: the user's layouts are kept per logger. Absent on a read-only view. */
  format?: string;
  own: readonly DataLogLayout[];
  onChanged?: () => void;
}

const SOURCE_TITLE: Record<LayoutChoice["source"], string> = {
  "built-in": "For this log",
  shared: "Shared with the link",
  own: "Yours, for this logger",
};

export function LayoutMenu({ choices, shown, panes, known, onPanes, format, own, onChanged }: LayoutMenuProps) {
  const { message } = App.useApp();
  const [saving, setSaving] = useState(false);
  const [name, setName] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const layouts = useSaveLayout();
  const replacing = own.find((layout) => layout.name.toLowerCase() === name.trim().toLowerCase());
  const ownShown = shown?.source === "own" ? own.find((layout) => layout.id === shown.id) : undefined;

  const open = (choice: LayoutChoice) => {
    const next = panesIn(choice, known);
    if (next.length === 0) void message.warning(`This log has none of the channels of “${choice.name}”.`);
    else onPanes(next);
  };
  const save = async () => {
    if (!format) return;
    setFailure(null);
    try {
      await layouts.save(format, name.trim(), panes, replacing);
      setSaving(false);
      onChanged?.();
      void message.success(`Layout “${name.trim()}” saved`);
    } catch (error) {
      setFailure((error as { description?: string }).description ?? (error as Error).message);
    }
  };
  const remove = async (layout: DataLogLayout) => {
    await layouts.remove(layout);
    onChanged?.();
    void message.success(`Layout “${layout.name}” removed`);
  };

  const groups = (["built-in", "shared", "own"] as const).flatMap((source) => {
    const list = choices.filter((choice) => choice.source === source);
    return list.length === 0
      ? []
      : [
          {
            type: "group" as const,
            key: source,
            label: SOURCE_TITLE[source],
            children: list.map((choice, i) => ({
              key: `${source}-${i}`,
              label: choice.name,
              onClick: () => open(choice),
            })),
          },
        ];
  });
  const actions: NonNullable<MenuProps["items"]> = format
    ? [
        { type: "divider" },
        {
          key: "save",
          label: "Save as layout…",
          disabled: panes.length === 0,
          onClick: () => {
            setName(ownShown?.name ?? "");
            setFailure(null);
            setSaving(true);
          },
        },
        ...(ownShown
          ? [{ key: "remove", danger: true, label: `Remove “${ownShown.name}”`, onClick: () => void remove(ownShown) }]
          : []),
      ]
    : [];

  return (
    <>
      <Dropdown menu={{ items: [...groups, ...actions] }} trigger={["click"]}>
        <Button icon={<AppstoreOutlined />} aria-label="Layout">
          {shown ? shown.name : "Layout"} <DownOutlined />
        </Button>
      </Dropdown>
      <Modal
        title="Save the panes as a layout"
        open={saving}
        onCancel={() => setSaving(false)}
        onOk={() => void save()}
        okText={replacing ? "Replace" : "Save"}
        okButtonProps={{ disabled: name.trim() === "", loading: layouts.saving }}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">
          Kept for every log of this logger, under your account.
        </Typography.Paragraph>
        <Input
          aria-label="Layout name"
          placeholder="Boost, Timing, Track day…"
          value={name}
          maxLength={LAYOUT_NAME_MAX}
          onChange={(event) => setName(event.target.value)}
          onPressEnter={() => name.trim() && void save()}
          autoFocus
        />
        {replacing && (
          <Typography.Paragraph type="warning" style={{ marginTop: 8, marginBottom: 0 }}>
            {`Replaces the panes of your layout “${replacing.name}”.`}
          </Typography.Paragraph>
        )}
        {failure && <Alert type="error" showIcon message={failure} style={{ marginTop: 8 }} />}
      </Modal>
    </>
  );
}
