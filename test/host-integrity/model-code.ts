/**
 * The two places model code runs inside a step, for attacks on what the step reaches: a model expression, and
 * generated code (dispatched by the composition, then called from an expression). `body` is an async function body
 * with `nh` in scope; the expression runs it, or calls the generated export that does.
 */
import * as nh from '../../kernel/src/index.js';
import type { z } from 'zod';
import { ScriptedModel, toolCall, type ScriptedTurn } from '../../kernel/src/testing.js';

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

export interface StepRunOptions {
  /** The step's program (default `execute\nGo.`) and write bindings. */
  readonly program?: string;
  readonly writes?: Record<string, z.ZodType>;
  readonly oversight?: nh.Oversight;
  /** Granted besides the code's references (default none). */
  readonly capabilities?: nh.Capability[];
  /** Wraps the scripted model (to note what each request asks for). */
  readonly client?: (model: ScriptedModel) => nh.ModelClient;
}

/**
 * Runs one step in a fresh Runner whose scripted model answers `turns`, after `code.prepare`. `outcome` is
 * `returned:<committed bindings as JSON>`, or `threw:<failure>` (a NaturalExecutionError's, else the error's name).
 */
export async function runStepWith(code: ModelCode, turns: readonly ScriptedTurn[], options: StepRunOptions = {}) {
  const model = new ScriptedModel(turns);
  const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model: options.client ? options.client(model) : model }) });
  const outcome = await runner
    .run(
      async (ctx) => {
        await code.prepare(ctx);
        return nh.step({ program: options.program ?? 'execute\nGo.', ...(options.writes ? { writes: options.writes } : {}) });
      },
      { grant: { capabilities: options.capabilities ?? [], references: code.references }, ...(options.oversight ? { oversight: options.oversight } : {}) },
    )
    .then(
      (r) => `returned:${JSON.stringify(r.bindings)}`,
      (e: Error) => `threw:${(e as { failure?: string }).failure ?? e.name}`,
    );
  const events = runner.ledger.select({});
  const evaluations = events.filter((e) => e.kind === 'operation' && (e.data as { request: { kind: string } }).request.kind === 'evaluate');
  return { outcome, events, model, previews: evaluations.map((e) => (e.data as { valuePreview?: string }).valuePreview) };
}

/** One step whose model evaluates `code`'s expression, then `next` if given, and finishes (see runStepWith). */
export function evaluateInStep(code: ModelCode, next?: string) {
  const finish = toolCall('nh_output', { result: { kind: 'pass' } });
  const first = toolCall('nh_evaluate', { expression: code.expression });
  return runStepWith(
    code,
    next === undefined
      ? [() => ({ toolCalls: [first, finish] })]
      : [() => ({ toolCalls: [first] }), () => ({ toolCalls: [toolCall('nh_evaluate', { expression: next }), finish] })],
  );
}
