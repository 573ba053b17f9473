/**
 * The car's modification timeline: grouped entries a page at a time (newest first, "Show older"
 * for the next), narrowed by a row of kind tags. Each page is its own request, so a page already
 * read stays as it was while the next loads.
 */
import { useCustom } from "@refinedev/core";
import { Alert, Button, Flex, Skeleton, Tag, Timeline, Typography } from "antd";
import { useState } from "react";
import { apiRoutes } from "../../../contracts/api-paths";
import type { FlashLog } from "../../../contracts/flash-logs";
import type { TimelineEntry, TimelineKind, TimelinePage } from "../../../contracts/user-vehicles";
import { FLASH_RESULT_COLOURS, FlashResultTag } from "./flash-result-tag";

/** Short enough that an entry's time and detail share one line on a phone. */
const SHORT: Intl.DateTimeFormatOptions = { dateStyle: "short", timeStyle: "short" };
const when = (iso: string) => new Date(iso).toLocaleString(undefined, SHORT);
/** A group's span: the day once when both ends fall on it. */
function span(firstIso: string, lastIso: string) {
  const [first, last] = [new Date(firstIso), new Date(lastIso)];
  return first.toDateString() === last.toDateString()
    ? `${when(firstIso)} – ${last.toLocaleTimeString(undefined, { timeStyle: "short" })}`
    : `${when(firstIso)} – ${when(lastIso)}`;
}

const TIMELINE_COLOURS: Record<TimelineKind, string> = {
  connect: "gray",
  "stock-read": "blue",
  bake: "cyan",
  flash: "green",
  "back-to-stock": "purple",
  log: "gold",
  "tuning-request": "magenta",
};

/** The filter's tags: short enough for a phone's width in two rows at most. */
const KIND_FILTERS: ReadonlyArray<{ label: string; kinds: TimelineKind[] }> = [
  { label: "Flashes", kinds: ["flash", "back-to-stock"] },
  { label: "Bakes", kinds: ["bake"] },
  { label: "Connects", kinds: ["connect"] },
  { label: "Requests", kinds: ["tuning-request"] },
  { label: "Logs", kinds: ["log"] },
  { label: "Stock read", kinds: ["stock-read"] },
];

function KindFilter({ chosen, onChange }: { chosen: string[]; onChange: (chosen: string[]) => void }) {
  return (
    <Flex wrap gap={4} role="group" aria-label="Show only" style={{ marginBottom: 16 }}>
      <Tag.CheckableTag checked={chosen.length === 0} onChange={() => onChange([])}>
        All
      </Tag.CheckableTag>
      {KIND_FILTERS.map(({ label }) => (
        <Tag.CheckableTag
          key={label}
          checked={chosen.includes(label)}
          onChange={(on) => onChange(on ? [...chosen, label] : chosen.filter((other) => other !== label))}
        >
          {label}
        </Tag.CheckableTag>
      ))}
    </Flex>
  );
}

function EntryText({ entry }: { entry: TimelineEntry }) {
  const [open, setOpen] = useState(false);
  const grouped = entry.count > 1;
  return (
    <div data-testid={`timeline-${entry.kind}`}>
      <Typography.Text strong>{entry.title}</Typography.Text>{" "}
      {grouped && <Tag aria-label={`${entry.count} times`}>×{entry.count}</Tag>}
      {entry.result && <FlashResultTag result={entry.result as FlashLog["result"]} />}
      <br />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {grouped ? span(entry.firstAt, entry.at) : when(entry.at)}
        {entry.detail ? ` · ${entry.detail}` : ""}
      </Typography.Text>
      {grouped && (
        <Button
          type="link"
          size="small"
          style={{ padding: 0, height: "auto", marginInlineStart: 8 }}
          onClick={() => setOpen(!open)}
          aria-expanded={open}
        >
          {open ? "Hide each" : `Show each of ${entry.count}`}
        </Button>
      )}
      {grouped && open && (
        <ul aria-label="Each time" style={{ margin: 0, paddingInlineStart: 16 }}>
          {entry.members.map((member) => (
            <li key={`${member.refId}-${member.at}`}>
              <Typography.Text type="secondary">
                {when(member.at)}
                {member.detail ? ` · ${member.detail}` : ""}
              </Typography.Text>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

interface PageProps {
  vehicleId: string;
  version: number;
  kinds: TimelineKind[];
  before: string | undefined;
  /** Set on the last page read: shows "Show older" when there is an older page. */
  onOlder?: (cursor: string) => void;
}

function TimelinePageView({ vehicleId, version, kinds, before, onOlder }: PageProps) {
  const { query } = useCustom<TimelinePage>({
    url: apiRoutes.vehicles.timeline(vehicleId),
    method: "get",
    config: { query: { ...(kinds.length > 0 && { kind: kinds.join(",") }), ...(before && { before }) } },
    queryOptions: { queryKey: ["vehicle-timeline", vehicleId, version, kinds, before] },
  });
  if (query.isLoading) return <Skeleton active />;
  if (query.isError)
    return <Alert type="error" showIcon message="Could not load the timeline" description={query.error.message} />;
  const page = query.data?.data;
  if (!page) return null;
  if (page.data.length === 0 && before === undefined)
    return <Typography.Text type="secondary">Nothing has happened to this car yet</Typography.Text>;
  return (
    <>
      <Timeline
        aria-label="Modification timeline"
        style={{ marginBottom: 0 }}
        items={page.data.map((entry) => ({
          key: `${entry.kind}-${entry.refId}-${entry.at}`,
          // Closer than antd's spacing: twenty entries stay a short scroll on a phone.
          style: { paddingBottom: 8 },
          color: entry.result ? FLASH_RESULT_COLOURS[entry.result as FlashLog["result"]] : TIMELINE_COLOURS[entry.kind],
          children: <EntryText entry={entry} />,
        }))}
      />
      {onOlder && page.nextCursor && (
        <Button block onClick={() => onOlder(page.nextCursor!)}>
          Show older
        </Button>
      )}
    </>
  );
}

export function VehicleTimeline({ vehicleId, version }: { vehicleId: string; version: number }) {
  const [chosen, setChosen] = useState<string[]>([]);
  // The cursor of each page shown: the first page has none.
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const kinds = KIND_FILTERS.filter(({ label }) => chosen.includes(label)).flatMap((filter) => filter.kinds);
  return (
    <>
      <KindFilter
        chosen={chosen}
        onChange={(next) => {
          setChosen(next);
          setCursors([undefined]);
        }}
      />
      {cursors.map((before, i) => (
        <TimelinePageView
          key={before ?? "newest"}
          vehicleId={vehicleId}
          version={version}
          kinds={kinds}
          before={before}
          onOlder={i === cursors.length - 1 ? (cursor) => setCursors([...cursors, cursor]) : undefined}
        />
      ))}
    </>
  );
}
