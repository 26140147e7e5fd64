/**
 * Monaco, trimmed to what a notebook cell needs. TypeScript gets Monarch highlighting only: the
 * in-browser TS language service would check each cell alone and flag every name defined in an earlier
 * cell (the Deno-in-VS-Code complaint), so completions and hover come from the kernel instead, which
 * knows the whole session.
 */
import * as monaco from 'monaco-editor/editor/editor.api.js';
import 'monaco-editor/features/codeEditor/register.js';
import 'monaco-editor/features/codicon/register.js';
import 'monaco-editor/editor/browser/coreCommands.js';
import 'monaco-editor/editor/common/standaloneStrings.js';
import 'monaco-editor/editor/contrib/suggest/browser/suggestController.js';
import 'monaco-editor/features/suggest/register.js';
import 'monaco-editor/features/hover/register.js';
import 'monaco-editor/features/find/register.js';
import 'monaco-editor/features/comment/register.js';
import 'monaco-editor/features/bracketMatching/register.js';
import 'monaco-editor/features/clipboard/register.js';
import 'monaco-editor/features/cursorUndo/register.js';
import 'monaco-editor/features/indentation/register.js';
import 'monaco-editor/features/linesOperations/register.js';
import 'monaco-editor/features/multicursor/register.js';
import 'monaco-editor/features/parameterHints/register.js';
import 'monaco-editor/features/snippet/register.js';
import 'monaco-editor/features/wordHighlighter/register.js';
import 'monaco-editor/features/wordOperations/register.js';
import 'monaco-editor/languages/definitions/typescript/register.js';
import 'monaco-editor/languages/definitions/markdown/register.js';
import EditorWorker from 'monaco-editor/editor/editor.worker.js?worker';
import type { Kernel } from '@jupyterlab/services';
import { stripAnsi } from './ansi.js';

export { monaco };

self.MonacoEnvironment = {
  getWorker: () => new EditorWorker(),
};

/** Jupyter counts cursor positions in Unicode code points; Monaco in UTF-16 units. */
export function toCodePoints(text: string, utf16Offset: number): number {
  return Array.from(text.slice(0, utf16Offset)).length;
}

export function fromCodePoints(text: string, codePoints: number): number {
  let units = 0;
  let count = 0;
  for (const ch of text) {
    if (count >= codePoints) break;
    units += ch.length;
    count++;
  }
  return units;
}

const KIND_BY_TYPE: Record<string, monaco.languages.CompletionItemKind> = {
  function: monaco.languages.CompletionItemKind.Function,
  method: monaco.languages.CompletionItemKind.Method,
  class: monaco.languages.CompletionItemKind.Class,
  interface: monaco.languages.CompletionItemKind.Interface,
  keyword: monaco.languages.CompletionItemKind.Keyword,
  module: monaco.languages.CompletionItemKind.Module,
  property: monaco.languages.CompletionItemKind.Property,
  variable: monaco.languages.CompletionItemKind.Variable,
  const: monaco.languages.CompletionItemKind.Constant,
  let: monaco.languages.CompletionItemKind.Variable,
  type: monaco.languages.CompletionItemKind.TypeParameter,
  enum: monaco.languages.CompletionItemKind.Enum,
};

interface TypedMatch {
  text: string;
  type?: string;
  signature?: string;
}

function typedMatches(metadata: unknown): Map<string, TypedMatch> {
  const out = new Map<string, TypedMatch>();
  const list = (metadata as { _jupyter_types_experimental?: unknown } | undefined)?._jupyter_types_experimental;
  if (Array.isArray(list)) {
    for (const item of list) {
      if (item && typeof item === 'object' && typeof (item as TypedMatch).text === 'string') out.set((item as TypedMatch).text, item as TypedMatch);
    }
  }
  return out;
}

let registered = false;

/** Registers kernel-backed completion and hover providers once; `kernelFor` picks the cell's kernel. */
export function registerKernelProviders(kernelFor: (model: monaco.editor.ITextModel) => Kernel.IKernelConnection | null): void {
  if (registered) return;
  registered = true;
  monaco.languages.registerCompletionItemProvider('typescript', {
    triggerCharacters: ['.'],
    async provideCompletionItems(model, position) {
      const kernel = kernelFor(model);
      if (!kernel) return { suggestions: [] };
      const code = model.getValue();
      const offset = model.getOffsetAt(position);
      const reply = await kernel.requestComplete({ code, cursor_pos: toCodePoints(code, offset) });
      const content = reply.content;
      if (content.status !== 'ok') return { suggestions: [] };
      const start = model.getPositionAt(fromCodePoints(code, content.cursor_start));
      const end = model.getPositionAt(fromCodePoints(code, content.cursor_end));
      const range = new monaco.Range(start.lineNumber, start.column, end.lineNumber, end.column);
      const types = typedMatches(content.metadata);
      return {
        suggestions: content.matches.map((label, i) => {
          const typed = types.get(label);
          return {
            label,
            insertText: label,
            range,
            sortText: String(i).padStart(5, '0'),
            kind: KIND_BY_TYPE[typed?.type ?? ''] ?? monaco.languages.CompletionItemKind.Text,
            detail: typed?.signature ?? typed?.type,
          };
        }),
      };
    },
  });
  monaco.languages.registerHoverProvider('typescript', {
    async provideHover(model, position) {
      const kernel = kernelFor(model);
      if (!kernel) return null;
      const word = model.getWordAtPosition(position);
      if (!word) return null;
      const code = model.getValue();
      const reply = await kernel.requestInspect({ code, cursor_pos: toCodePoints(code, model.getOffsetAt(position)), detail_level: 0 });
      const content = reply.content;
      if (content.status !== 'ok' || !content.found) return null;
      const markdown = content.data['text/markdown'];
      const plain = content.data['text/plain'];
      const value = typeof markdown === 'string' ? markdown : typeof plain === 'string' ? '```typescript\n' + stripAnsi(plain) + '\n```' : '';
      if (!value) return null;
      return {
        range: new monaco.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn),
        contents: [{ value }],
      };
    },
  });
}

export function setMonacoTheme(dark: boolean): void {
  monaco.editor.setTheme(dark ? 'vs-dark' : 'vs');
}

// Loaded after the page chose its theme (chrome.ts applyTheme): start in it.
setMonacoTheme(document.documentElement.dataset.theme === 'dark');
