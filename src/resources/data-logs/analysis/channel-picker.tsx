import { Checkbox, Flex, Input, theme } from "antd";
import { Text } from "../../../components/text";
import { memo, useMemo, useState } from "react";
import { type ChartChannel, groupByUnit } from "./channels";

interface ChannelPickerProps {
  channels: ChartChannel[];
  charted: ReadonlySet<string>;
  colourOf: (id: string) => string;
  onToggle: (id: string) => void;
  /** The log's header has not arrived: no channel is known yet. */
  loading?: boolean;
}

/** Every channel of the log, searchable, grouped by unit; ticking one charts it. */
export const ChannelPicker = memo(function ChannelPicker({ channels, charted, colourOf, onToggle, loading = false }: ChannelPickerProps) {
  const { token } = theme.useToken();
  const [search, setSearch] = useState("");
  const groups = useMemo(() => groupByUnit(channels, search), [channels, search]);
  return (
    <Flex vertical gap={8} style={{ minHeight: 0, flex: 1 }}>
      <Input.Search placeholder="Search channels" allowClear value={search} onChange={(event) => setSearch(event.target.value)} aria-label="Search channels" />
      <div style={{ overflowY: "auto", flex: 1 }} role="group" aria-label="Channels">
        {groups.length === 0 && <Text type="secondary">{loading ? "Reading the log's channels…" : `No channel matches “${search}”.`}</Text>}
        {groups.map((group) => (
          <div key={group.unit} style={{ marginBottom: 8 }}>
            <Text type="secondary" style={{ fontSize: 12, textTransform: "uppercase" }}>
              <strong>{group.unit || "No unit"}</strong>
            </Text>
            {group.channels.map((channel) => (
              <div key={channel.id} style={{ padding: "2px 0" }}>
                <Checkbox checked={charted.has(channel.id)} onChange={() => onToggle(channel.id)}>
                  <span style={{ borderLeft: `3px solid ${colourOf(channel.id)}`, paddingLeft: 6, color: token.colorText }}>{channel.name}</span>
                </Checkbox>
              </div>
            ))}
          </div>
        ))}
      </div>
    </Flex>
  );
});
