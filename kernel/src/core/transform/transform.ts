/**
 * The Natural block transform: TypeScript in, TypeScript out. Each statement-level sentinel literal
 * inside a wrapped async function becomes a `runBlock` call that reads live locals through thunks,
 * assigns committed write bindings back to the real locals, then applies return/break/continue.
 * Explicit write schemas: `nh.function(fn, { bindings: { x: z.number() } })`; they win over annotations.
 */
import type TS from 'typescript';
import { NaturalParseError } from '../errors.js';
import { extractBindings, parseProgram } from '../program.js';
import { emitProgramExpression, findSpanningToken, readBlockLiteral, type BlockLiteral } from './block-literal.js';
import { mayContainNaturalBlocks } from './block-sentinel.js';
import { emitBlock, padToHeight } from './emit-block.js';
import { isAssignable, visibleNames, type VisibleName } from './scope-analysis.js';
import { awaitedReturnType, schemaForType } from './type-schema.js';
import type { TransformDiagnostic, TransformDiagnosticCode, TransformOptions, TransformResult } from './types.js';
import { typescript } from './typescript-module.js';
import { explicitSchemaText, findWrapperCalls, wrapperCallOf, wrapperNames, type WrapperCall, type WrapperNames } from './wrapper-calls.js';

const RUN_BLOCK = 'nh$runBlock';
const Z = 'nh$z';
const ESCAPE_INTERPOLATION = 'nh$escape';
const RESERVED_PREFIX = 'nh$';

interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

interface FileContext {
  readonly ts: typeof TS;
  readonly file: TS.SourceFile;
  readonly source: string;
  readonly options: TransformOptions;
  readonly names: WrapperNames;
  readonly diagnostics: TransformDiagnostic[];
  readonly edits: Edit[];
  readonly blocksPerCall: Map<TS.CallExpression, number>;
  usesZod: boolean;
  usesEscape: boolean;
  readonly loopLabels: Map<TS.Node, string>;
}

/** Rewrites every Natural block in `source`. Sources without a sentinel are returned unparsed. */
export function transformNaturalBlocks(source: string, options: TransformOptions): TransformResult {
  if (!mayContainNaturalBlocks(source)) return { code: source, diagnostics: [], blockCount: 0 };
  const ts = typescript();
  const runtimeModule = options.runtimeModule ?? 'nighthawk-ts';
  const kind = /\.[cm]?tsx$|\.jsx$/.test(options.fileName) ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(options.fileName, source, ts.ScriptTarget.Latest, true, kind);
  const names = wrapperNames(file, new Set(['nighthawk-ts', runtimeModule]));
  const cx: FileContext = {
    ts, file, source, options, names,
    diagnostics: [], edits: [], blocksPerCall: new Map(),
    usesZod: false, usesEscape: false, loopLabels: new Map(),
  };
  const visit = (node: TS.Node): void => {
    if (ts.isExpressionStatement(node)) {
      const literal = readBlockLiteral(node, source);
      if (literal) {
        rewriteBlock(cx, node, literal);
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  for (const call of findWrapperCalls(file, names)) addMeta(cx, call, cx.blocksPerCall.get(call.call) ?? 0);
  const blockCount = [...cx.blocksPerCall.values()].reduce((a, b) => a + b, 0);
  if (blockCount > 0) {
    // At the first statement: after a shebang, leading comments and `///` directives, on the same line.
    const at = file.statements[0]!.getStart(file);
    cx.edits.push({ start: at, end: at, text: header(cx, runtimeModule) });
  }
  return { code: applyEdits(source, cx.edits), diagnostics: cx.diagnostics, blockCount };
}

function header(cx: FileContext, runtimeModule: string): string {
  let text = `import { runBlock as ${RUN_BLOCK} } from ${JSON.stringify(runtimeModule)}; `;
  if (cx.usesZod) text += `import { z as ${Z} } from ${JSON.stringify(cx.options.zodModule ?? 'zod')}; `;
  if (cx.usesEscape) text += `const ${ESCAPE_INTERPOLATION} = (value: unknown): string => String(value).replace(/</g, "\\\\<"); `;
  return text;
}

function applyEdits(source: string, edits: Edit[]): string {
  edits.sort((a, b) => b.start - a.start || b.end - a.end);
  let out = source;
  for (const edit of edits) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

function report(cx: FileContext, node: TS.Node, code: TransformDiagnosticCode, message: string, bindingName?: string, severity: 'error' | 'warning' = 'error'): void {
  const { line, character } = cx.file.getLineAndCharacterOfPosition(node.getStart(cx.file));
  cx.diagnostics.push({
    code, severity, message, fileName: cx.options.fileName, line: line + 1, column: character + 1,
    ...(bindingName === undefined ? {} : { bindingName }),
  });
}

/** Marks the wrapper call as transformed: `wrap(fn)` → `wrap(fn, { transformed: true, blocks: n })`. */
function addMeta(cx: FileContext, { call, options }: WrapperCall, blocks: number): void {
  const meta = `transformed: true, blocks: ${blocks}`;
  if (options) {
    const start = options.getStart(cx.file);
    cx.edits.push({ start, end: start, text: `{ ...(` });
    cx.edits.push({ start: options.end, end: options.end, text: `), ${meta} }` });
  } else {
    const end = call.arguments[0]!.end;
    cx.edits.push({ start: end, end, text: `, { ${meta} }` });
  }
}

function enclosingFunction(cx: FileContext, node: TS.Node): TS.SignatureDeclaration | undefined {
  for (let n = node.parent; n; n = n.parent) if (cx.ts.isFunctionLike(n)) return n;
  return undefined;
}

function rewriteBlock(cx: FileContext, statement: TS.ExpressionStatement, literal: BlockLiteral): void {
  const { ts } = cx;
  const fn = enclosingFunction(cx, statement);
  const wrapper = fn && wrapperCallOf(fn, cx.names);
  if (!fn || !wrapper) {
    report(cx, statement, 'block-outside-natural-function',
      'A Natural block must be a statement inside an async function wrapped by the function wrapper, e.g. nh.function(async function name() { … }).');
    return;
  }
  const isAsync = wrapper.fn.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword) ?? false;
  if (!isAsync || wrapper.fn.asteriskToken) {
    report(cx, wrapper.fn, 'sync-natural-function', 'Natural functions are always async: declare the wrapped function `async`.');
    return;
  }
  const bindings = blockBindings(cx, statement, literal);
  if (!bindings) return;
  cx.blocksPerCall.set(wrapper.call, (cx.blocksPerCall.get(wrapper.call) ?? 0) + 1);
  const visible = visibleNames(statement, cx.options.externalNames ?? []);
  const referenced = new Set([...bindings.reads, ...bindings.writes, ...bindings.referenceRoots]);
  for (const name of bindings.reads) {
    // Task references and globals resolve at run time, so an unknown name is only a warning here.
    if (!visible.has(name) && !(name in globalThis)) {
      report(cx, statement, 'unresolved-read',
        `Read binding <${name}> names nothing declared in scope at this block; unless scope({ taskReferences }) provides it, the block fails before any model call.`,
        name, 'warning');
    }
  }
  const writes: { name: string; schema: string | undefined }[] = [];
  const writeBacks: { name: string; castType: string }[] = [];
  for (const name of bindings.writes) {
    const declaration = visible.get(name);
    writes.push({ name, schema: writeSchema(cx, wrapper, statement, name, declaration) });
    if (!declaration) {
      report(cx, statement, 'undeclared-write', `Write binding <:${name}> has no declaration in scope; declare \`let ${name}\` before the block (JavaScript cannot create locals).`, name);
    } else if (!isAssignable(declaration.kind)) {
      report(cx, statement, 'write-to-constant', `Write binding <:${name}> targets a ${declaration.kind} declaration; declare it with \`let\` so the block can assign it.`, name);
    } else {
      writeBacks.push({ name, castType: declaration.typeNode ? textOf(cx, declaration.typeNode) : `typeof ${name}` });
    }
  }
  const scopeNames = [...visible.values()]
    .filter((v) => !v.name.startsWith(RESERVED_PREFIX) && (!v.moduleLevel || referenced.has(v.name)))
    .map((v) => v.name);
  const returnNode = awaitedReturnType(wrapper.fn.type);
  const returns = returnNode && schemaForType(returnNode, Z);
  if (returns) cx.usesZod = true;
  const loop = enclosingLoop(cx, statement, fn);
  if (literal.expressions.length) cx.usesEscape = true;
  const { line } = cx.file.getLineAndCharacterOfPosition(statement.getStart(cx.file));
  const text = emitBlock({
    program: emitProgramExpression(literal, cx.source, ESCAPE_INTERPOLATION),
    stepId: cx.options.stepLabel ? `${cx.options.stepLabel}, line ${line + 1}` : `${cx.options.fileName}:${line + 1}`,
    scopeNames,
    writes,
    writeBacks,
    returns,
    returnType: returnNode ? textOf(cx, returnNode) : 'unknown',
    inLoop: loop !== undefined,
    breakLabel: loop?.breakLabel,
    runBlockName: RUN_BLOCK,
  });
  const start = statement.getStart(cx.file);
  cx.edits.push({ start, end: statement.end, text: padToHeight(text, cx.source.slice(start, statement.end)) });
}

function textOf(cx: FileContext, node: TS.Node): string {
  return cx.source.slice(node.getStart(cx.file), node.end);
}

/** Bindings from the literal parts; undefined (with a diagnostic) when the program is invalid. */
function blockBindings(cx: FileContext, statement: TS.ExpressionStatement, literal: BlockLiteral):
  { reads: string[]; writes: string[]; referenceRoots: string[] } | undefined {
  try {
    if (literal.parts.length === 1) {
      const program = parseProgram(literal.parts[0]!);
      return { reads: [...program.readBindingNames], writes: [...program.writeBindingNames], referenceRoots: [...program.referenceRoots] };
    }
    const spanning = findSpanningToken(literal.parts);
    if (spanning) {
      report(cx, statement, 'spanning-interpolation', `The binding token ${spanning} spans a \${} interpolation; bindings must sit in the literal text.`);
      return undefined;
    }
    const reads = new Set<string>();
    const writes = new Set<string>();
    const roots = new Set<string>();
    for (const part of literal.parts) {
      const found = extractBindings(part);
      found.reads.forEach((n) => reads.add(n));
      found.writes.forEach((n) => writes.add(n));
      found.referenceRoots.forEach((n) => roots.add(n));
    }
    return { reads: [...reads].filter((n) => !writes.has(n)), writes: [...writes], referenceRoots: [...roots] };
  } catch (error) {
    if (!(error instanceof NaturalParseError)) throw error;
    report(cx, statement, 'invalid-program', error.message);
    return undefined;
  }
}

/**
 * Write-binding schema precedence: an explicit schema in the wrapper's `bindings` option wins, then
 * one derived from the declaration's annotation, else `undefined` (the runtime infers from the value).
 */
function writeSchema(cx: FileContext, wrapper: WrapperCall, statement: TS.Node, name: string, declaration: VisibleName | undefined): string | undefined {
  const explicit = explicitSchemaText(wrapper.options, name, cx.source);
  if (explicit?.kind === 'literal') return explicit.text;
  if (explicit?.kind === 'unreadable') {
    report(cx, wrapper.options ?? statement, 'unreadable-bindings-option',
      'The wrapper options must be an object literal `{ bindings: { name: schema } }` or a variable for explicit binding schemas to apply; falling back to annotations.',
      name, 'warning');
  }
  const derived = declaration?.typeNode && schemaForType(declaration.typeNode, Z);
  if (derived) cx.usesZod = true;
  if (explicit?.kind === 'lookup') return `${explicit.text} ?? ${derived ?? 'undefined'}`;
  return derived;
}

/** The innermost loop around the block within its own function, with a label when a switch intervenes. */
function enclosingLoop(cx: FileContext, statement: TS.Node, fn: TS.Node): { breakLabel: string | undefined } | undefined {
  const { ts } = cx;
  let switchBetween = false;
  for (let n = statement.parent; n && n !== fn; n = n.parent) {
    if (ts.isSwitchStatement(n)) switchBetween = true;
    if (!ts.isIterationStatement(n, false)) continue;
    if (!switchBetween) return { breakLabel: undefined };
    if (ts.isLabeledStatement(n.parent)) return { breakLabel: n.parent.label.text };
    let label = cx.loopLabels.get(n);
    if (!label) {
      label = `nh$loop_${cx.loopLabels.size}`;
      cx.loopLabels.set(n, label);
      const start = n.getStart(cx.file);
      cx.edits.push({ start, end: start, text: `${label}: ` });
    }
    return { breakLabel: label };
  }
  return undefined;
}
