/**
 * Identify rules and checksum schemes as rows of fields, with the same value as JSON one switch
 * away ("Advanced (JSON)") for what the rows do not cover. The rows hold the values as the contract
 * takes them (addresses as "0x…" text), so the schema checks them and names the row that is wrong.
 */
import { DeleteOutlined, PlusOutlined } from "@ant-design/icons";
import { Button, Flex, Input, Segmented, Select, Typography } from "antd";
import { type ReactNode, useState } from "react";
import { CHECKSUM_TYPES } from "../../../contracts/tune-definition";
import { JsonField } from "../../components/resource/json-field";

type Row = Record<string, unknown>;

const asRows = (value: unknown): Row[] => (Array.isArray(value) ? (value as Row[]) : []);
const hexText = (value: unknown) =>
  typeof value === "number" ? `0x${value.toString(16).toUpperCase()}` : typeof value === "string" ? value : "";
const parseAddress = (text: string): string | number => (/^\d+$/.test(text) ? Number(text) : text.trim());

/** The rows, or the JSON of the same value; the JSON view opens on the value as it is now. */
function RowsOrJson({
  id,
  value,
  onChange,
  label,
  rows,
}: {
  id: string;
  value: unknown;
  onChange: (value: unknown) => void;
  label: string;
  rows: () => ReactNode;
}) {
  const [view, setView] = useState<"form" | "json">("form");
  return (
    <Flex vertical gap={8} id={id}>
      <Segmented
        size="small"
        aria-label={`${label} view`}
        value={view}
        onChange={(next) => setView(next as "form" | "json")}
        options={[
          { value: "form", label: "Form" },
          { value: "json", label: "Advanced (JSON)" },
        ]}
        style={{ alignSelf: "start" }}
      />
      {view === "json" ? (
        <JsonField value={value} onChange={onChange} rows={6} aria-label={`${label} as JSON`} />
      ) : (
        rows()
      )}
    </Flex>
  );
}

function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return <Button aria-label={label} icon={<DeleteOutlined />} onClick={onClick} />;
}

/** Identify rules: offset and bytes (hex) or text, every rule must match. */
export function IdentifyRulesEditor({
  id,
  value,
  onChange,
}: {
  id: string;
  value: unknown;
  onChange: (value: unknown) => void;
}) {
  const rules = asRows(value);
  const set = (i: number, rule: Row) => onChange(rules.map((r, j) => (j === i ? rule : r)));
  return (
    <RowsOrJson
      id={id}
      value={value}
      onChange={onChange}
      label="Identify rules"
      rows={() => (
        <Flex vertical gap={6} role="list" aria-label="Identify rules">
          {rules.map((rule, i) => {
            const kind = rule.bytes !== undefined ? "bytes" : "text";
            const n = i + 1;
            return (
              <Flex key={i} gap={6} role="listitem" wrap>
                <Input
                  aria-label={`Rule ${n} offset`}
                  placeholder="0x100"
                  style={{ width: 120 }}
                  value={hexText(rule.address)}
                  onChange={(e) => set(i, { ...rule, address: parseAddress(e.target.value) })}
                />
                <Select
                  aria-label={`Rule ${n} kind`}
                  style={{ width: 100 }}
                  value={kind}
                  options={[
                    { value: "text", label: "Text" },
                    { value: "bytes", label: "Bytes" },
                  ]}
                  onChange={(next) => set(i, { address: rule.address, [next]: String(rule.text ?? rule.bytes ?? "") })}
                />
                <Input
                  aria-label={`Rule ${n} ${kind}`}
                  placeholder={kind === "bytes" ? "DEADBEEF" : "8D0907551M"}
                  style={{ flex: 1, minWidth: 140, fontFamily: kind === "bytes" ? "monospace" : undefined }}
                  value={String(rule[kind] ?? "")}
                  onChange={(e) => set(i, { address: rule.address, [kind]: e.target.value })}
                />
                <RemoveButton label={`Remove rule ${n}`} onClick={() => onChange(rules.filter((_, j) => j !== i))} />
              </Flex>
            );
          })}
          <Button
            icon={<PlusOutlined />}
            style={{ alignSelf: "start" }}
            onClick={() => onChange([...rules, { address: "0x0", text: "" }])}
          >
            Add identify rule
          </Button>
        </Flex>
      )}
    />
  );
}

/** "0x0-0xFFFF, 0x10000-0x1FFFF" ⇄ [["0x0","0xFFFF"], …]; a piece not yet complete stays as typed. */
const rangesText = (ranges: unknown) =>
  Array.isArray(ranges)
    ? ranges.map((r) => (Array.isArray(r) ? `${hexText(r[0])}-${hexText(r[1])}` : String(r))).join(", ")
    : "";
const parseRanges = (text: string) =>
  text
    .split(",")
    .map((piece) => piece.trim())
    .filter(Boolean)
    .map((piece) => {
      const [start, end = ""] = piece.split("-").map((part) => part.trim());
      return [parseAddress(start), parseAddress(end)];
    });

/** Checksum schemes: name, kind and ranges, and where the sum is stored. */
export function ChecksumSchemesEditor({
  id,
  value,
  onChange,
}: {
  id: string;
  value: unknown;
  onChange: (value: unknown) => void;
}) {
  const schemes = asRows(value);
  const set = (i: number, scheme: Row) => onChange(schemes.map((s, j) => (j === i ? scheme : s)));
  return (
    <RowsOrJson
      id={id}
      value={value}
      onChange={onChange}
      label="Checksum schemes"
      rows={() => (
        <Flex vertical gap={6} role="list" aria-label="Checksum schemes">
          {schemes.map((scheme, i) => {
            const n = i + 1;
            const store = (scheme.store ?? {}) as Row;
            return (
              <Flex key={i} gap={6} role="listitem" wrap>
                <Input
                  aria-label={`Scheme ${n} name`}
                  placeholder="main"
                  style={{ width: 120 }}
                  value={String(scheme.name ?? "")}
                  onChange={(e) => set(i, { ...scheme, name: e.target.value })}
                />
                <Select
                  aria-label={`Scheme ${n} kind`}
                  style={{ width: 170 }}
                  value={scheme.type as string | undefined}
                  options={CHECKSUM_TYPES.map((type) => ({ value: type, label: type }))}
                  onChange={(type) => set(i, { ...scheme, type })}
                />
                <Input
                  aria-label={`Scheme ${n} ranges`}
                  placeholder="0x0-0xFFFF, 0x10000-0x1FFFF"
                  style={{ flex: 1, minWidth: 180 }}
                  defaultValue={rangesText(scheme.ranges)}
                  onChange={(e) => set(i, { ...scheme, ranges: parseRanges(e.target.value) })}
                />
                <Input
                  aria-label={`Scheme ${n} stored at`}
                  placeholder="0x1FFFC"
                  style={{ width: 120 }}
                  value={hexText(store.address)}
                  onChange={(e) => set(i, { ...scheme, store: { ...store, address: parseAddress(e.target.value) } })}
                />
                <RemoveButton
                  label={`Remove scheme ${n}`}
                  onClick={() => onChange(schemes.filter((_, j) => j !== i))}
                />
              </Flex>
            );
          })}
          <Button
            icon={<PlusOutlined />}
            style={{ alignSelf: "start" }}
            onClick={() => onChange([...schemes, { name: "", type: "crc32", ranges: [], store: { address: "0x0" } }])}
          >
            Add checksum scheme
          </Button>
        </Flex>
      )}
    />
  );
}

const PROFILE_FIELDS: Array<{ key: string; label: string; hex?: boolean }> = [
  { key: "securityLevel", label: "Security level" },
  { key: "seedKeyAlgorithm", label: "Seed/key algorithm" },
  { key: "requestCanId", label: "Request CAN id", hex: true },
  { key: "responseCanId", label: "Response CAN id", hex: true },
  { key: "p2TimeoutMs", label: "P2 timeout (ms)" },
  { key: "p2StarTimeoutMs", label: "P2* timeout (ms)" },
  { key: "minBatteryVolts", label: "Minimum battery (V)" },
];
const NEW_PROFILE = {
  securityLevel: 1,
  seedKeyAlgorithm: "",
  requestCanId: "0x7E0",
  responseCanId: "0x7E8",
  p2TimeoutMs: 50,
  p2StarTimeoutMs: 5000,
  minBatteryVolts: 12,
};

/** A number typed as text: digits become a number, anything else stays as typed for the schema to name. */
const numberOrText = (text: string): unknown => (/^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : text);

/** The UDS flashing profile: security level, seed/key algorithm, CAN ids and timings. */
export function FlashingProfileEditor({
  id,
  value,
  onChange,
}: {
  id: string;
  value: unknown;
  onChange: (value: unknown) => void;
}) {
  const profile = value && typeof value === "object" ? (value as Row) : null;
  return (
    <RowsOrJson
      id={id}
      value={value}
      onChange={onChange}
      label="Profile"
      rows={() =>
        profile ? (
          <Flex gap={8} wrap>
            {PROFILE_FIELDS.map(({ key, label, hex }) => (
              <Flex key={key} vertical gap={2} style={{ width: 160 }}>
                <Typography.Text type="secondary">{label}</Typography.Text>
                <Input
                  aria-label={label}
                  value={hex ? hexText(profile[key]) : String(profile[key] ?? "")}
                  onChange={(e) =>
                    onChange({
                      ...profile,
                      [key]:
                        key === "seedKeyAlgorithm"
                          ? e.target.value
                          : hex
                            ? parseAddress(e.target.value)
                            : numberOrText(e.target.value),
                    })
                  }
                />
              </Flex>
            ))}
            <Button onClick={() => onChange(null)}>Remove profile</Button>
          </Flex>
        ) : (
          <Button icon={<PlusOutlined />} style={{ alignSelf: "start" }} onClick={() => onChange(NEW_PROFILE)}>
            Add profile
          </Button>
        )
      }
    />
  );
}

const BLOCK_FIELDS: Array<{ key: string; label: string; hex?: boolean }> = [
  { key: "name", label: "name" },
  { key: "number", label: "number" },
  { key: "baseAddress", label: "base address", hex: true },
  { key: "length", label: "length" },
  { key: "fileOffset", label: "file offset" },
  { key: "transferSize", label: "transfer size" },
];

/** The blocks flashed: each with its number, base address, length, offset in the file and transfer size. */
export function FlashBlocksEditor({
  id,
  value,
  onChange,
}: {
  id: string;
  value: unknown;
  onChange: (value: unknown) => void;
}) {
  const blocks = asRows(value);
  const set = (i: number, block: Row) => onChange(blocks.map((b, j) => (j === i ? block : b)));
  return (
    <RowsOrJson
      id={id}
      value={value}
      onChange={onChange}
      label="Blocks"
      rows={() => (
        <Flex vertical gap={6} role="list" aria-label="Blocks">
          {blocks.map((block, i) => (
            <Flex key={i} gap={6} role="listitem" wrap>
              {BLOCK_FIELDS.map(({ key, label, hex }) => (
                <Input
                  key={key}
                  aria-label={`Block ${i + 1} ${label}`}
                  placeholder={label}
                  style={{ width: key === "name" ? 120 : 100 }}
                  value={hex ? hexText(block[key]) : String(block[key] ?? "")}
                  onChange={(e) =>
                    set(i, {
                      ...block,
                      [key]:
                        key === "name"
                          ? e.target.value
                          : hex
                            ? parseAddress(e.target.value)
                            : numberOrText(e.target.value),
                    })
                  }
                />
              ))}
              <RemoveButton
                label={`Remove block ${i + 1}`}
                onClick={() => onChange(blocks.filter((_, j) => j !== i))}
              />
            </Flex>
          ))}
          <Button
            icon={<PlusOutlined />}
            style={{ alignSelf: "start" }}
            onClick={() =>
              onChange([
                ...blocks,
                {
                  name: "",
                  number: blocks.length + 1,
                  baseAddress: "0x0",
                  length: 0,
                  fileOffset: 0,
                  transferSize: 4095,
                },
              ])
            }
          >
            Add block
          </Button>
        </Flex>
      )}
    />
  );
}
