/**
 * SessionFunction call overhead: from operator code (each call starts a fresh run: entry event,
 * allocation, run end) and from inside a run (joins it), beside a plain call of the same function.
 */
import { Pass, Session, type StepExecutor } from '../kernel/src/index.js';
import { report, sample } from './stats.js';

const executor: StepExecutor & { admitsExecutorSteps: true } = { admitsExecutorSteps: true, runStep: async () => ({ outcome: Pass }) };

async function main(): Promise<void> {
  const session = new Session({ executor });
  const plain = async (n: number) => n + 1;
  const submission = session.submit('const inc = async (n: number) => n + 1;');
  const { inc } = session.materialized(submission, { inc: plain });
  const adapter = inc as unknown as (n: number) => Promise<number>;

  const baseline = await sample(5_000, () => plain(1));
  const fresh = await sample(5_000, () => adapter(1));
  report('session.call_fresh_run', fresh, baseline);

  const interior: number[] = [];
  await session.runner.run(async () => {
    interior.push(...(await sample(5_000, () => adapter(1))));
  });
  report('session.call_inside_run', interior, baseline);
}

await main();
