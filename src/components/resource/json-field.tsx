/**
 * A JSON document edited as text (identify rules, checksum schemes, the map
 * definition): the form holds the parsed value so the contract schema checks
 * it; text that is not JSON yet is kept here and reported on the field.
 */
import { Input } from "antd";
import { useState } from "react";

export function JsonField({
  id,
  value,
  onChange,
  onBlur,
  rows = 8,
  placeholder,
  "aria-label": ariaLabel,
}: {
  id?: string;
  "aria-label"?: string;
  value: unknown;
  onChange: (value: unknown) => void;
  onBlur?: () => void;
  rows?: number;
  placeholder?: string;
}) {
  const [text, setText] = useState(() => (value === undefined ? "" : JSON.stringify(value, null, 2)));
  const [parseError, setParseError] = useState<string | null>(null);
  return (
    <>
      <Input.TextArea
        id={id}
        aria-label={ariaLabel}
        rows={rows}
        value={text}
        placeholder={placeholder}
        spellCheck={false}
        style={{ fontFamily: "monospace", fontSize: 12 }}
        status={parseError ? "error" : undefined}
        onBlur={onBlur}
        onChange={(event) => {
          const next = event.target.value;
          setText(next);
          try {
            onChange(next.trim() === "" ? null : JSON.parse(next));
            setParseError(null);
          } catch (error) {
            setParseError((error as Error).message);
          }
        }}
      />
      {parseError && <div style={{ color: "var(--ant-color-error)", fontSize: 12 }}>Not JSON yet: {parseError}</div>}
    </>
  );
}
