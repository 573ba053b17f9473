import { CopyOutlined, DeleteOutlined } from "@ant-design/icons";
import { useCustom, useCustomMutation, useInvalidate } from "@refinedev/core";
import { Alert, App, Button, Checkbox, Flex, Input, List, Modal, Select, Space, Typography } from "antd";
import { useState } from "react";
import { apiRoutes } from "../../../contracts/api-paths";
import type { SharedLayout } from "../../../contracts/data-log-layouts";
import {
  type CreatedDataLogShare,
  type DataLogChannel,
  type DataLogShare,
  type SharedComparedLog,
  sharedLogPath,
} from "../../../contracts/data-logs";

const EXPIRY_OPTIONS = [
  { value: 0, label: "Never expires" },
  { value: 1, label: "Expires in 1 day" },
  { value: 7, label: "Expires in 7 days" },
  { value: 30, label: "Expires in 30 days" },
];

interface ShareDialogProps {
  logId: string;
  title: string;
  channels: DataLogChannel[];
  /** Preselected: the channels on screen. */
  initialChannels?: string[];
  /** The logs overlaid on this one, with where each sits: the link can carry the comparison. */
  compared?: Array<{ id: string; title: string; offset: number }>;
  /** The panes on screen and the layout they are: the link can open with them. */
  layout?: SharedLayout | null;
  open: boolean;
  onClose: () => void;
}

/** The layout's panes as far as the link shows their channels (every channel when none are chosen); null when none is left. */
function layoutOfChannels(layout: SharedLayout | null, chosen: readonly string[]): SharedLayout | null {
  if (!layout || chosen.length === 0) return layout;
  const panes = layout.panes.map((pane) => pane.filter((id) => chosen.includes(id))).filter((pane) => pane.length);
  return panes.length ? { name: layout.name, panes } : null;
}

/** Makes a link anyone can open (signed in or not) showing the chosen channels; lists and revokes links. */
export function ShareDialog({
  logId,
  title,
  channels,
  initialChannels = [],
  compared = [],
  layout = null,
  open,
  onClose,
}: ShareDialogProps) {
  const { message } = App.useApp();
  const invalidate = useInvalidate();
  const [chosen, setChosen] = useState<string[]>(initialChannels);
  const [days, setDays] = useState(0);
  const [link, setLink] = useState<string | null>(null);
  const [withCompared, setWithCompared] = useState(true);
  const [withLayout, setWithLayout] = useState(true);
  const [failure, setFailure] = useState<string | null>(null);
  const { query } = useCustom<{ data: DataLogShare[]; total: number }>({
    url: apiRoutes.dataLogs.shares(logId),
    method: "get",
    queryOptions: { enabled: open },
  });
  const { mutateAsync, mutation } = useCustomMutation<CreatedDataLogShare>();
  const refresh = () => invalidate({ invalidates: ["all"], resource: "data-logs" });
  const shares = (query.data?.data.data ?? []).filter((share) => !share.revokedAt);

  const shareOne = async (id: string, shared: string[], expiresAt: string | null, opensWith?: SharedLayout | null) =>
    (
      await mutateAsync({
        url: apiRoutes.dataLogs.share(id),
        method: "post",
        values: { channels: shared, expiresAt, ...(opensWith && { layout: opensWith }) },
        successNotification: false,
        errorNotification: false,
      })
    ).data.token;

  const create = async () => {
    const expiresAt = days ? new Date(Date.now() + days * 86_400_000).toISOString() : null;
    setFailure(null);
    // Each compared log gets a link of its own (all its channels: they are matched on the viewer's side),
    // made first, so a refusal leaves no comparison link that would open without them.
    const others: SharedComparedLog[] = [];
    for (const other of withCompared ? compared : []) {
      try {
        others.push({ token: await shareOne(other.id, [], expiresAt), offset: Number(other.offset.toFixed(3)) });
      } catch (error) {
        setFailure(`“${other.title}” could not be shared: ${(error as Error).message}`);
        return;
      }
    }
    const token = await shareOne(logId, chosen, expiresAt, withLayout ? layoutOfChannels(layout, chosen) : null);
    setLink(`${window.location.origin}${sharedLogPath(token, chosen, others)}`);
    await query.refetch();
  };

  const revoke = async (share: DataLogShare) => {
    await mutateAsync({
      url: `${apiRoutes.dataLogs.shares(logId)}/${share.id}`,
      method: "delete",
      values: {},
      successNotification: () => ({ type: "success", message: "Link revoked" }),
    });
    await query.refetch();
    refresh();
  };

  const copy = async () => {
    if (!link) return;
    await navigator.clipboard.writeText(link);
    void message.success("Link copied");
  };

  const name = (id: string) => channels.find((channel) => channel.id === id)?.name ?? id;
  return (
    <Modal title={`Share “${title}”`} open={open} onCancel={onClose} footer={null} width={600} destroyOnHidden>
      <Flex vertical gap={12}>
        <Typography.Text type="secondary">
          Anyone with the link can view the log, signed in or not. Leave the channels empty to share all of them.
        </Typography.Text>
        <Select
          mode="multiple"
          aria-label="Channels to share"
          placeholder="All channels"
          value={chosen}
          onChange={setChosen}
          options={channels.map((channel) => ({ value: channel.id, label: channel.name }))}
          optionFilterProp="label"
        />
        {layout && (
          <Checkbox checked={withLayout} onChange={(event) => setWithLayout(event.target.checked)}>
            {`Opens with the panes on screen (${layout.name})`}
          </Checkbox>
        )}
        {compared.length > 0 && (
          <Checkbox checked={withCompared} onChange={(event) => setWithCompared(event.target.checked)}>
            {`With the ${compared.length === 1 ? "compared log" : `${compared.length} compared logs`} (${compared
              .map((other) => other.title)
              .join(", ")}), aligned as shown: each gets a link of its own`}
          </Checkbox>
        )}
        {failure && <Alert type="error" showIcon message={failure} />}
        <Space>
          <Select aria-label="Expiry" value={days} onChange={setDays} options={EXPIRY_OPTIONS} style={{ width: 200 }} />
          <Button type="primary" onClick={() => void create()} loading={mutation.isPending}>
            Create link
          </Button>
        </Space>
        {link && (
          <>
            <Space.Compact block>
              <Input readOnly value={link} aria-label="Share link" data-testid="share-link" />
              <Button icon={<CopyOutlined />} onClick={() => void copy()}>
                Copy
              </Button>
            </Space.Compact>
            <Alert
              type="info"
              showIcon
              message="Copy the link now: for safety only a fingerprint of it is stored, so it cannot be shown again."
            />
          </>
        )}
        <List
          size="small"
          header={<Typography.Text strong>Active links</Typography.Text>}
          loading={query.isLoading}
          dataSource={shares}
          locale={{ emptyText: "No active links" }}
          renderItem={(share) => (
            <List.Item
              actions={[
                <Button
                  key="revoke"
                  danger
                  size="small"
                  icon={<DeleteOutlined />}
                  onClick={() => void revoke(share)}
                  aria-label={`Revoke the link created ${new Date(share.createdAt).toLocaleString()}`}
                >
                  Revoke
                </Button>,
              ]}
            >
              <List.Item.Meta
                title={share.channels.length ? share.channels.map(name).join(", ") : "All channels"}
                description={`Created ${new Date(share.createdAt).toLocaleString()} · ${share.expiresAt ? `expires ${new Date(share.expiresAt).toLocaleString()}` : "never expires"}`}
              />
            </List.Item>
          )}
        />
      </Flex>
    </Modal>
  );
}
