/**
 * The two places model code runs inside a step, for attacks on what the step reaches: a model expression, and
 * generated code (dispatched by the composition, then called from an expression). `body` is an async function body
 * with `nh` in scope; the expression runs it, or calls the generated export that does.
 */
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

export type StepPlace = 'expression' | 'generated';
export const STEP_PLACES: readonly StepPlace[] = ['expression', 'generated'];
export const placeName = (place: StepPlace): string => (place === 'expression' ? 'a model expression' : 'generated code an expression called');

export function modelCodeIn(place: StepPlace, body: string) {
  const probe: { go?: () => Promise<unknown> } = {};
  return {
    /** What the scripted model proposes through nh_evaluate. */
    expression: place === 'expression' ? `(async () => { ${body} })()` : 'probe.go()',
    /** Grant references the expression needs. */
    references: { nh, probe } as Record<string, unknown>,
    /** Call from the composition before the step: dispatches the generated export (nothing for an expression). */
    async prepare(ctx: nh.RunContext): Promise<void> {
      if (place !== 'generated') return;
      const source = `export async function go() { ${body} }`;
      const { exports } = await ctx.dispatch({ language: 'javascript', intent: 'define', source, dependencies: [{ name: 'nh', kind: 'reference', type: 'object' }] });
      probe.go = exports.go as () => Promise<unknown>;
    },
  };
}

export type ModelCode = ReturnType<typeof modelCodeIn>;

/**
 * Runs one step in a fresh Runner whose model evaluates `code`'s expression, then `next` if given, and finishes.
 * Returns the run's ledger events and the value previews of its evaluate operations, in order.
 */
export async function evaluateInStep(code: ModelCode, next?: string): Promise<{ events: readonly nh.LedgerEvent[]; previews: Array<string | undefined> }> {
  const finish = toolCall('nh_output', { result: { kind: 'pass' } });
  const first = toolCall('nh_evaluate', { expression: code.expression });
  const model = new ScriptedModel(
    next === undefined
      ? [() => ({ toolCalls: [first, finish] })]
      : [() => ({ toolCalls: [first] }), () => ({ toolCalls: [toolCall('nh_evaluate', { expression: next }), finish] })],
  );
  const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
  await runner.run(
    async (ctx) => {
      await code.prepare(ctx);
      await nh.step({ program: 'execute\nGo.' });
    },
    { grant: { capabilities: [], references: code.references } },
  );
  const events = runner.ledger.select({});
  const evaluations = events.filter((e) => e.kind === 'operation' && (e.data as { request: { kind: string } }).request.kind === 'evaluate');
  return { events, previews: evaluations.map((e) => (e.data as { valuePreview?: string }).valuePreview) };
}
