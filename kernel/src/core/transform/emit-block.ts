/**
 * The step call that replaces one Natural block. It is emitted on the block's first line and padded
 * with newlines to the block's height, so every following line keeps its number.
 */

export interface BlockEmit {
  readonly program: string;
  readonly stepId: string;
  readonly scopeNames: readonly string[];
  /** Write binding → schema expression text (or `undefined`). */
  readonly writes: readonly { readonly name: string; readonly schema: string | undefined }[];
  /** Write bindings that are assigned back (assignable targets only), with their cast type text. */
  readonly writeBacks: readonly { readonly name: string; readonly castType: string }[];
  readonly returns: string | undefined;
  readonly returnType: string;
  readonly inLoop: boolean;
  /** Label for `break` when a switch sits between the block and its loop. */
  readonly breakLabel: string | undefined;
  readonly runBlockName: string;
}

export const RESULT_NAME = 'nh$r';
const BINDINGS_NAME = 'nh$b';

export function emitBlock(block: BlockEmit): string {
  const r = RESULT_NAME;
  const scope = block.scopeNames.map((name) => `${name}: () => ${name}`).join(', ');
  const writes = block.writes.map((w) => `${w.name}: ${w.schema ?? 'undefined'}`).join(', ');
  // The committed bindings are written back by runBlock itself (spec.assign), before the step lifecycle hears.
  let assign = '';
  for (const { name, castType } of block.writeBacks) {
    const key = JSON.stringify(name);
    assign += ` if (${key} in ${BINDINGS_NAME}) ${name} = ${BINDINGS_NAME}[${key}] as ${castType};`;
  }
  const spec =
    `{ program: ${block.program}, stepId: ${JSON.stringify(block.stepId)}, scope: { ${scope} }, ` +
    `writes: { ${writes} }, returnAllowed: true, returns: ${block.returns ?? 'undefined'}, inLoop: ${block.inLoop}` +
    (assign ? `, assign: (${BINDINGS_NAME}: Readonly<Record<string, unknown>>) => {${assign} }` : '') +
    ' }';
  let out = `{ const ${r} = await ${block.runBlockName}(${spec});`;
  // The type checker does not see the assignment inside \`assign\`: each write binding is widened back to its
  // declared type here (the same value assigned to itself), so code after the block is checked as before.
  for (const { name, castType } of block.writeBacks) out += ` ${name} = ${name} as ${castType};`;
  out += ` if (${r}.kind === "return") return ${r}.value as ${block.returnType};`;
  if (block.inLoop) {
    out += ` if (${r}.kind === "break") break${block.breakLabel ? ' ' + block.breakLabel : ''};`;
    out += ` if (${r}.kind === "continue") continue;`;
  }
  return out + ' }';
}

/** Appends newlines so the replacement spans as many lines as the original text. */
export function padToHeight(replacement: string, original: string): string {
  const missing = countNewlines(original) - countNewlines(replacement);
  return missing > 0 ? replacement + '\n'.repeat(missing) : replacement;
}

export function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
