/**
 * The computed-descriptor expression in Monaco (loaded locally, in this lazy
 * chunk only): channel-expression highlighting, completion of channel
 * variables, and the evaluator's error marked where it is.
 */
import Editor, { type OnMount } from "@monaco-editor/react";
import { useEffect, useRef } from "react";
import type { ExpressionErrorInfo } from "../../../domain/expression";
import { type ChannelVariable, EXPRESSION_LANGUAGE, monaco, setCompletionChannels } from "../../components/monaco";

type EditorInstance = Parameters<OnMount>[0];

export default function ExpressionEditor({
  value,
  onChange,
  onBlur,
  error,
  channels,
}: {
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  error: ExpressionErrorInfo | null;
  channels: readonly ChannelVariable[];
}) {
  const editor = useRef<EditorInstance | null>(null);

  useEffect(() => setCompletionChannels(channels), [channels]);

  // Positions are 0-based character offsets into the whole text.
  const showError = () => {
    const model = editor.current?.getModel();
    if (!model) return;
    const start = error && model.getPositionAt(error.position);
    const end = error && model.getPositionAt(error.position + error.length);
    monaco.editor.setModelMarkers(
      model,
      "expression",
      error && start && end
        ? [
            {
              severity: monaco.MarkerSeverity.Error,
              message: error.message,
              startLineNumber: start.lineNumber,
              startColumn: start.column,
              endLineNumber: end.lineNumber,
              endColumn: end.column,
            },
          ]
        : [],
    );
  };
  useEffect(showError, [error, value]);

  return (
    <div
      style={{ border: "1px solid var(--ant-color-border)", borderRadius: 6, padding: 4 }}
      data-testid="expression-editor"
    >
      <Editor
        height={72}
        language={EXPRESSION_LANGUAGE}
        // Uncontrolled: feeding each keystroke back as `value` can drop keys typed while React renders.
        defaultValue={value}
        onChange={(next) => onChange(next ?? "")}
        onMount={(instance) => {
          editor.current = instance;
          showError();
          instance.onDidBlurEditorText(() => onBlur?.());
        }}
        options={{
          minimap: { enabled: false },
          lineNumbers: "off",
          glyphMargin: false,
          folding: false,
          scrollBeyondLastLine: false,
          wordWrap: "on",
          fontSize: 14,
          renderLineHighlight: "none",
          overviewRulerLanes: 0,
          // Typed text stays as typed, so the error position matches what the evaluator reads.
          autoClosingBrackets: "never",
          ariaLabel: "Expression",
        }}
      />
    </div>
  );
}
