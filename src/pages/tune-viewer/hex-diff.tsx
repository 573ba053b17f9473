/**
 * Two images side by side in Monaco's diff editor. Only the lines that
 * differ, with two lines of context, are put in the models: the full dumps
 * would be 2 × 35 MB of text for the diff algorithm to walk for a handful of
 * changed maps.
 */
import { Alert, Flex, Typography } from "antd";
import { useEffect, useMemo, useRef } from "react";
import { monaco } from "../../components/monaco";
import { diffRegions, diffText } from "./hex";
import { HEX_EDITOR_OPTIONS } from "./hex-view";

export interface HexDiffProps {
  left: Uint8Array;
  right: Uint8Array;
  leftLabel: string;
  rightLabel: string;
}

export default function HexDiff({ left, right, leftLabel, rightLabel }: HexDiffProps) {
  const host = useRef<HTMLDivElement>(null);
  const regions = useMemo(() => diffRegions(left, right, 2), [left, right]);

  useEffect(() => {
    if (regions.length === 0) return;
    const original = monaco.editor.createModel(diffText(left, regions), "plaintext");
    const modified = monaco.editor.createModel(diffText(right, regions), "plaintext");
    const editor = monaco.editor.createDiffEditor(host.current!, {
      ...HEX_EDITOR_OPTIONS,
      originalEditable: false,
      renderSideBySide: true,
      useInlineViewWhenSpaceIsLimited: false,
      renderOverviewRuler: true,
      ignoreTrimWhitespace: false,
      // The addresses are in the text; Monaco's line numbers would count lines of this excerpt.
      lineNumbers: "off",
    });
    editor.setModel({ original, modified });
    return () => {
      editor.dispose();
      original.dispose();
      modified.dispose();
    };
  }, [left, right, regions]);

  if (regions.length === 0)
    return <Alert type="success" showIcon message={`${leftLabel} and ${rightLabel} have the same bytes.`} />;
  return (
    <Flex vertical gap={8} data-testid="hex-diff">
      <Flex justify="space-between">
        <Typography.Text strong>{leftLabel}</Typography.Text>
        <Typography.Text type="secondary">
          {regions.length} changed region{regions.length === 1 ? "" : "s"}, shown with 2 lines of context
        </Typography.Text>
        <Typography.Text strong>{rightLabel}</Typography.Text>
      </Flex>
      <div ref={host} style={{ height: "65vh", border: "1px solid rgba(128,128,128,0.3)" }} />
    </Flex>
  );
}
