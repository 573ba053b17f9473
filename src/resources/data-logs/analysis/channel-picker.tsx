import { ConfigProvider, Flex, Input, theme } from "antd";
import useCheckboxStyle from "antd/es/checkbox/style";
import useCSSVarCls from "antd/es/config-provider/hooks/useCSSVarCls";
import { memo, useContext, useMemo, useState } from "react";
import { Text } from "../../../components/text";
import { type ChartChannel, groupByUnit } from "./channels";

interface ChannelPickerProps {
  channels: ChartChannel[];
  charted: ReadonlySet<string>;
  colourOf: (id: string) => string;
  onToggle: (id: string) => void;
  /** The log's header has not arrived: no channel is known yet. */
  loading?: boolean;
  /** The unit a channel of the file's unit is shown in (the chosen display units); as it is when left out. */
  displayUnitOf?: (unit: string) => string;
}

/** Every channel of the log, searchable, grouped by unit; ticking one charts it. */
export const ChannelPicker = memo(function ChannelPicker({
  channels,
  charted,
  colourOf,
  onToggle,
  loading = false,
  displayUnitOf,
}: ChannelPickerProps) {
  const { token } = theme.useToken();
  const classes = useCheckboxClasses();
  const [search, setSearch] = useState("");
  const groups = useMemo(() => groupByUnit(channels, search, displayUnitOf), [channels, search, displayUnitOf]);
  return (
    <Flex vertical gap={8} style={{ minHeight: 0, flex: 1 }}>
      <Input.Search
        placeholder="Search channels"
        allowClear
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        aria-label="Search channels"
      />
      <div style={{ overflowY: "auto", flex: 1 }} role="group" aria-label="Channels">
        {groups.length === 0 && (
          <Text type="secondary">{loading ? "Reading the log's channels…" : `No channel matches “${search}”.`}</Text>
        )}
        {groups.map((group) => (
          <div key={group.unit} style={{ marginBottom: 8 }}>
            {/* Units as written: upper case would turn "λ" into "Λ" and "kPa" into "KPA". */}
            <Text type="secondary" style={{ fontSize: 12 }}>
              <strong>{group.unit || "No unit"}</strong>
            </Text>
            {group.channels.map((channel) => (
              <ChannelBox
                key={channel.id}
                id={channel.id}
                name={channel.name}
                colour={colourOf(channel.id)}
                textColour={token.colorText}
                checked={charted.has(channel.id)}
                onToggle={onToggle}
                classes={classes}
              />
            ))}
          </div>
        ))}
      </div>
    </Flex>
  );
});

/** antd's checkbox classes, with the theme's hash: its style hook runs once for the list, not per channel. */
function useCheckboxClasses() {
  const prefix = useContext(ConfigProvider.ConfigContext).getPrefixCls("checkbox");
  const rootCls = useCSSVarCls(prefix);
  const [, hashId, cssVarCls] = useCheckboxStyle(prefix, rootCls);
  return useMemo(
    () => ({ prefix, wrapper: [`${prefix}-wrapper`, cssVarCls, rootCls, hashId].filter(Boolean).join(" "), hashId }),
    [prefix, rootCls, hashId, cssVarCls],
  );
}

interface ChannelBoxProps {
  id: string;
  name: string;
  colour: string;
  textColour: string;
  checked: boolean;
  onToggle: (id: string) => void;
  classes: ReturnType<typeof useCheckboxClasses>;
}

/**
 * A channel's checkbox, drawn as antd's Checkbox draws it (the same elements and style classes, so the
 * same look), from a plain input: antd's brings a click wave, a bubble lock, group and form
 * contexts and its style hook to each of a log's channels (tens to hundreds), and rendering the list
 * as the log's header arrived was the data log's costliest task after the page's own. Memoised: ticking
 * one channel renders that one again.
 */
const ChannelBox = memo(function ChannelBox({
  id,
  name,
  colour,
  textColour,
  checked,
  onToggle,
  classes,
}: ChannelBoxProps) {
  const { prefix, wrapper, hashId } = classes;
  return (
    <div style={{ padding: "2px 0" }}>
      <label className={checked ? `${wrapper} ${prefix}-wrapper-checked` : wrapper}>
        <span className={[prefix, hashId, checked ? `${prefix}-checked` : ""].filter(Boolean).join(" ")}>
          <input type="checkbox" className={`${prefix}-input`} checked={checked} onChange={() => onToggle(id)} />
          <span className={`${prefix}-inner`} />
        </span>
        <span className={`${prefix}-label`}>
          <span style={{ borderLeft: `3px solid ${colour}`, paddingLeft: 6, color: textColour }}>{name}</span>
        </span>
      </label>
    </div>
  );
});
