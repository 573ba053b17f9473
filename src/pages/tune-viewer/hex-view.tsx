/**
 * The whole image in Monaco (from our bundle, in this lazy chunk only): hex
 * and ASCII columns with the address in the gutter. One model of the whole
 * dump: built in one buffer it costs well under a second for 8 MiB, and
 * Monaco draws only the visible lines, so scrolling stays cheap. An item's
 * bytes are highlighted and selected; the cursor's byte names the items it
 * falls in, with a link to open them.
 */
import { Button, Flex, Typography } from "antd";
import { useEffect, useMemo, useRef, useState } from "react";
import type { TuneItem } from "../../../contracts/tune-definition";
import { indexExtents } from "../../../domain/tune/diff";
import { type ItemExtent, itemExtents } from "../../../domain/tune/maps";
import { monaco } from "../../components/monaco";
import { BYTES_PER_LINE, byteAt, byteRanges, extentsAt, hexDump, hexDumpLines, lineAddress, lineCount } from "./hex";

const PART_NAMES = { z: "data", x: "x axis", y: "y axis" } as const;

/** Options shared with the hex diff: read-only, and every feature that would scan the whole text switched off. */
export const HEX_EDITOR_OPTIONS = {
  readOnly: true,
  domReadOnly: true,
  minimap: { enabled: false },
  folding: false,
  wordWrap: "off",
  scrollBeyondLastLine: false,
  occurrencesHighlight: "off",
  selectionHighlight: false,
  matchBrackets: "never",
  links: false,
  codeLens: false,
  unicodeHighlight: { ambiguousCharacters: false, invisibleCharacters: false, nonBasicASCII: false },
  stickyScroll: { enabled: false },
  guides: { indentation: false },
  renderWhitespace: "none",
  contextmenu: false,
  fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
  fontSize: 13,
  automaticLayout: true,
} satisfies monaco.editor.IStandaloneEditorConstructionOptions;

/** Dumps made so far, by image: the viewer makes one in idle time, before the hex view is asked for. */
const dumps = new WeakMap<Uint8Array, string>();

function dumpOf(bytes: Uint8Array): string {
  let text = dumps.get(bytes);
  if (text === undefined) {
    text = hexDump(bytes);
    dumps.set(bytes, text);
  }
  return text;
}

/** Lines written per slice of idle time: about a millisecond's work, so a click is never kept waiting. */
const IDLE_SLICE_LINES = 4096;

/** Makes an image's dump a slice at a time in idle callbacks; answers a function that cancels what is left. */
export function prepareDumpWhenIdle(bytes: Uint8Array): () => void {
  if (dumps.has(bytes)) return () => undefined;
  const parts: string[] = [];
  const total = lineCount(bytes.length);
  let next = 0;
  let handle = 0;
  const work = (deadline: IdleDeadline) => {
    while (next < total && deadline.timeRemaining() > 2) {
      parts.push(hexDumpLines(bytes, next, IDLE_SLICE_LINES));
      next += IDLE_SLICE_LINES;
    }
    if (next < total) handle = requestIdleCallback(work);
    else if (!dumps.has(bytes)) dumps.set(bytes, parts.join("\n"));
  };
  handle = requestIdleCallback(work);
  return () => cancelIdleCallback(handle);
}

export interface HexViewProps {
  bytes: Uint8Array;
  /** The definition's items; empty for an image without a definition. */
  items: readonly TuneItem[];
  /** The item whose bytes to show: highlighted, selected and scrolled to. */
  selected?: TuneItem;
  onOpenItem?: (id: string) => void;
}

export default function HexView({ bytes, items, selected, onOpenItem }: HexViewProps) {
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const [cursor, setCursor] = useState<number | null>(null);
  const index = useMemo(() => indexExtents(items), [items]);

  useEffect(() => {
    const model = monaco.editor.createModel(dumpOf(bytes), "plaintext");
    const editor = monaco.editor.create(host.current!, {
      ...HEX_EDITOR_OPTIONS,
      model,
      lineNumbers: lineAddress,
      lineNumbersMinChars: 7,
      ariaLabel: "Image bytes",
    });
    editorRef.current = editor;
    const moved = editor.onDidChangeCursorPosition(({ position }) =>
      setCursor(byteAt(position.lineNumber, position.column, bytes.length)),
    );
    return () => {
      moved.dispose();
      editor.dispose();
      model.dispose();
      editorRef.current = null;
    };
  }, [bytes]);

  useEffect(() => {
    const editor = editorRef.current;
    if (!editor || !selected) return;
    const extents = itemExtents(selected);
    const decorations = editor.createDecorationsCollection(
      extents.flatMap((extent) =>
        byteRanges(extent.start, Math.min(extent.end, bytes.length)).map((range) => ({
          range,
          options: {
            inlineClassName: extent.part === "z" ? "hex-item-data" : "hex-item-axis",
            hoverMessage: { value: `${selected.title} (${PART_NAMES[extent.part]})` },
          },
        })),
      ),
    );
    const [data] = extents;
    const first = byteRanges(data.start, data.start + 1)[0];
    const last = byteRanges(data.end - 1, data.end)[0];
    editor.setSelection({
      startLineNumber: first.startLineNumber,
      startColumn: first.startColumn,
      endLineNumber: last.endLineNumber,
      endColumn: last.endColumn,
    });
    editor.revealLinesInCenter(first.startLineNumber, Math.min(last.endLineNumber, first.startLineNumber + 20));
    return () => decorations.clear();
  }, [selected, bytes]);

  const under: ItemExtent[] = cursor === null ? [] : extentsAt(index, cursor);
  return (
    <Flex vertical gap={8} data-testid="hex-view">
      <style>
        {
          ".hex-item-data { background: rgba(255, 170, 0, 0.35); } .hex-item-axis { background: rgba(22, 119, 255, 0.22); }"
        }
      </style>
      <div ref={host} style={{ height: "65vh", border: "1px solid rgba(128,128,128,0.3)" }} />
      <Typography.Text data-testid="hex-cursor">
        {cursor === null ? (
          `${bytes.length.toLocaleString("en")} bytes, ${Math.ceil(bytes.length / BYTES_PER_LINE).toLocaleString("en")} lines. Click a byte to see which map it belongs to.`
        ) : (
          <>
            0x{cursor.toString(16).toUpperCase()} = 0x{bytes[cursor].toString(16).toUpperCase().padStart(2, "0")}{" "}
            {under.length === 0
              ? "is in no map of the definition"
              : under.map((extent) => (
                  <span key={`${extent.item.id}:${extent.part}`}>
                    · in {extent.item.title} ({PART_NAMES[extent.part]}, byte {cursor - extent.start} of{" "}
                    {extent.end - extent.start}){" "}
                    {onOpenItem && (
                      <Button type="link" size="small" onClick={() => onOpenItem(extent.item.id)}>
                        Open {extent.item.title}
                      </Button>
                    )}
                  </span>
                ))}
          </>
        )}
      </Typography.Text>
    </Flex>
  );
}
