/**
 * The README's harness, ledger and Session examples, each exactly as the README writes it, inside a function
 * whose first lines supply the names the README leaves to the reader (an executor, a place to post, an event,
 * a retained definition). The project's typecheck (scripts/test.sh) checks them against the library's types;
 * readme-examples.test.ts checks each README block still stands here word for word, and runs them.
 */
import { z } from 'zod';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

/** An executor whose model writes `text` and passes: what the README's status-report step asks of it. */
export function statusExecutor(text: string): nh.AgentExecutor {
  const model = new ScriptedModel(() => ({
    toolCalls: [toolCall('nh_assign', { target_path: 'text', expression: JSON.stringify(text) }), toolCall('nh_output', { result: { kind: 'pass' } })],
  }));
  return new nh.AgentExecutor({ model });
}

/** "Runs under the Harness", then "Generators in generated code" on the same runner. */
export async function harnessExamples(executor: nh.AgentExecutor, postSomewhere: (text: string) => Promise<void>) {
  // README, "Runs under the Harness":
  const audit = new nh.SqlitePerimeterAuditStore({ path: '.nighthawk/audit.db' });
  const send = nh.defineCapability({
    name: 'send_report', description: 'Post a report', footprint: ['egress'],
    request: z.object({ text: z.string() }),
    run: async ({ text }) => postSomewhere(text),
  });
  const runner = new nh.Runner({ executor, platformPolicy: ['egress'], perimeterAuditStore: audit });
  await runner.run(async (ctx) => {
    const { bindings } = await nh.step({ program: 'execute\nWrite a one-line status into <:text>.', writes: { text: z.string() } });
    await ctx.invoke('send_report', { text: bindings.text }); // attempt recorded durably before the effect
  }, { grant: { capabilities: [send] }, allocation: { maxExecutorSteps: 20 } });
  const operations = runner.ledger.select({ kind: 'operation' }); // deterministic projections of the ledger

  // README, "Generators in generated code":
  const source = `
async function* pages(): AsyncGenerator<number> { yield 1; yield 2; yield 3; }
export async function total(): Promise<number> { let sum = 0; for await (const p of pages()) sum += p; return sum; }`;
  const total = await runner.run(async (ctx) => {
    const { exports } = await ctx.dispatch({ language: 'typescript', intent: 'define', source });
    return (exports.total as () => Promise<number>)(); // 6, consumed inside its dispatch
  });
  return { runner, audit, operations, total };
}

/** "The ledger for auditors": typed events read without casts; `someEvent` is one read back from JSON. */
export function auditorExample(runner: nh.Runner, someEvent: unknown) {
  const seen: unknown[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => void seen.push(args);
  try {
    // README, "Typed events":
    const entry = runner.ledger.select({ kind: 'run.entry' })[0]!;
    entry.data.effectivePolicy;          // readonly ('egress' | 'destructive' | 'durable_write_back')[]
    entry.data.executorStepObservation;  // 'adapter' | 'custom-admission' | 'aggregate'
    for (const e of runner.ledger.select({ kind: ['capability.refused', 'trace.anomaly'] })) {
      if (e.kind === 'capability.refused') console.log(e.data.capability, e.data.reason);
    }
    nh.LedgerEventSchema.parse(someEvent); // validates any event (values the host only records are `unknown`)
    return { entry, logged: seen };
  } finally {
    console.log = log;
  }
}

/** "Session extras": a retained definition called through the Session. */
export async function retainExample(session: nh.Session, retained: nh.RetainedFunction) {
  // README, "Session extras":
  const add = session.retain<(a: number, b: number) => number>(retained, 'add');
  return await add(2, 3); // a new run; inside another SessionFunction it would join the caller's run
}
