/**
 * Monaco, loaded from our own bundle (never a CDN), with its editor worker and
 * the channel-expression language: highlighting for the sandboxed evaluator's
 * syntax (domain/expression/) and completion of channel variables.
 * Import this module only from lazily loaded code: Monaco is several MB.
 */
import { loader } from "@monaco-editor/react";
import * as monaco from "monaco-editor/editor/editor.api";
import EditorWorker from "monaco-editor/editor/editor.worker?worker";

declare global {
  interface Window {
    MonacoEnvironment?: { getWorker(workerId: string, label: string): Worker };
  }
}

self.MonacoEnvironment = { getWorker: () => new EditorWorker() };
loader.config({ monaco });

export const EXPRESSION_LANGUAGE = "channel-expression";
export const EXPRESSION_FUNCTIONS = [
  "min",
  "max",
  "abs",
  "sqrt",
  "exp",
  "log",
  "log10",
  "round",
  "floor",
  "ceil",
  "pow",
  "clamp",
  "prev",
];

export interface ChannelVariable {
  variable: string;
  name: string;
  unit: string;
}

/** What completion offers; the editor on screen replaces it as the channel list loads. */
let channels: readonly ChannelVariable[] = [];
export function setCompletionChannels(next: readonly ChannelVariable[]): void {
  channels = next;
}

monaco.languages.register({ id: EXPRESSION_LANGUAGE });
monaco.languages.setMonarchTokensProvider(EXPRESSION_LANGUAGE, {
  functions: EXPRESSION_FUNCTIONS,
  tokenizer: {
    root: [
      [/[A-Za-z_][A-Za-z0-9_]*(?=\s*\()/, { cases: { "@functions": "keyword", "@default": "invalid" } }],
      [/[A-Za-z_][A-Za-z0-9_]*/, "variable"],
      [/\d*\.?\d+([eE][-+]?\d+)?/, "number"],
      [/[-+*/%^<>=!?:]+/, "operator"],
      [/[()]/, "@brackets"],
    ],
  },
});
monaco.languages.registerCompletionItemProvider(EXPRESSION_LANGUAGE, {
  provideCompletionItems(model, position) {
    const word = model.getWordUntilPosition(position);
    const range = {
      startLineNumber: position.lineNumber,
      endLineNumber: position.lineNumber,
      startColumn: word.startColumn,
      endColumn: word.endColumn,
    };
    return {
      suggestions: [
        ...channels.map((channel) => ({
          label: channel.variable,
          kind: monaco.languages.CompletionItemKind.Variable,
          detail: `${channel.name}${channel.unit ? ` (${channel.unit})` : ""}`,
          insertText: channel.variable,
          range,
        })),
        ...EXPRESSION_FUNCTIONS.map((fn) => ({
          label: fn,
          kind: monaco.languages.CompletionItemKind.Function,
          insertText: `${fn}($0)`,
          insertTextRules: monaco.languages.CompletionItemInsertTextRule.InsertAsSnippet,
          range,
        })),
      ],
    };
  },
});

export { monaco };
