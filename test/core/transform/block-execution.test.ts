import { afterAll, describe, expect, it } from 'vitest';
import {
  BindingResolutionError,
  Break,
  Continue,
  OutputValidationError,
  Pass,
  run,
  scope,
  type StepCandidate,
  type StepExecutor,
  type StepRequest,
} from '../../../kernel/src/index.js';
import { ENTRY, compileModule, removeCompiledModules } from './compile-module.js';

afterAll(removeCompiledModules);

type AsyncFn<A extends unknown[], R> = (...args: A) => Promise<R>;

function executor(handler: (request: StepRequest) => StepCandidate) {
  const requests: StepRequest[] = [];
  const value: StepExecutor = {
    async runStep(request) {
      requests.push(request);
      return handler(request);
    },
  };
  return { executor: value, requests };
}

const HEAD = `import * as nh from ${JSON.stringify(ENTRY)};\nimport { z } from 'zod';\n`;

const loops = await compileModule<{
  loop: AsyncFn<[], number>;
  switched: AsyncFn<[], number>;
}>(
  HEAD +
    `
export const loop = nh.function(async function loop(): Promise<number> {
  let total = 0;
  for (let i = 0; i < 5; i++) {
    total += 1;
    'execute\\nDecide whether to go on.';
    total += 100;
  }
  return total;
});
export const switched = nh.function(async function switched(): Promise<number> {
  let total = 0;
  for (const i of [0, 1, 2, 3, 4]) {
    total += 1;
    switch (i % 2) {
      case 0:
        'execute\\nDecide whether to go on.';
        total += 10;
    }
    total += 100;
  }
  return total;
});
`,
  'loops',
);

const writes = await compileModule<{
  counts: AsyncFn<[], [number, string]>;
  strict: AsyncFn<[], number>;
  tdz: AsyncFn<[], number>;
  topic: AsyncFn<[string], string>;
  choose: AsyncFn<[string[]], string>;
  observed: AsyncFn<[], number>;
  current: () => number;
}>(
  HEAD +
    `
let probe = () => -1;
export const current = () => probe();
export const observed = nh.function(async function observed(): Promise<number> {
  let x: number = 0;
  probe = () => x;
  'execute\\nSet <:x>.';
  return x;
});
export const counts = nh.function(async function counts(): Promise<[number, string]> {
  let count: number = 1;
  let label = 'before';
  'execute\\nSet <:count> and maybe <:label>.';
  return [count, label];
});
export const strict = nh.function(async function strict(): Promise<number> {
  let count: number = 1;
  'execute\\nSet <:count>.';
  return count;
}, { bindings: { count: z.number().int() } });
export const tdz = nh.function(async function tdz(): Promise<number> {
  'execute\\nUse <later>.';
  let later = 1;
  return later;
});
export const topic = nh.function(async (subject: string): Promise<string> => {
  let out = '';
  \`execute
  Write about \${subject} into <:out>.\`;
  return out;
});
export const choose = nh.function(async function choose(options: string[]): Promise<string> {
  let choice: string = 'none';
  'decide\\nPick one of <options> into <:choice>.';
  return choice;
});
`,
  'writes',
);

describe('compiled block form', () => {
  it('break ends the loop right after the block: total is 1', async () => {
    const { executor: ex, requests } = executor(() => ({ outcome: Break }));
    expect(await run(ex, () => loops.loop())).toBe(1);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.allowedOutcomes).toEqual(['pass', 'return', 'break', 'continue', 'raise']);
  });

  it('continue skips the rest of each iteration: total is 5', async () => {
    const { executor: ex, requests } = executor(() => ({ outcome: Continue }));
    expect(await run(ex, () => loops.loop())).toBe(5);
    expect(requests).toHaveLength(5);
  });

  it('pass runs the code after the block: total is 505', async () => {
    const { executor: ex } = executor(() => ({ outcome: Pass }));
    expect(await run(ex, () => loops.loop())).toBe(505);
  });

  it('break from a block inside a switch leaves the loop, not just the switch', async () => {
    const { executor: ex } = executor(() => ({ outcome: Break }));
    expect(await run(ex, () => loops.switched())).toBe(1);
  });

  it('the executor sees live locals and the step id file:line of the block', async () => {
    const totals: unknown[] = [];
    const { executor: ex, requests } = executor((request) => {
      totals.push(request.stepContext.locals.total);
      return { outcome: Continue };
    });
    await run(ex, () => loops.loop());
    expect(totals).toEqual([1, 2, 3, 4, 5]);
    expect(requests[0]!.stepContext.stepId).toBe('loops.ts:8');
  });

  it('committed write bindings are assigned to the real locals; untouched ones keep their value', async () => {
    const { executor: ex } = executor(() => ({ outcome: Pass, bindings: { count: 7 } }));
    expect(await run(ex, () => writes.counts())).toEqual([7, 'before']);
    const both = executor(() => ({ outcome: Pass, bindings: { count: 8, label: 'after' } }));
    expect(await run(both.executor, () => writes.counts())).toEqual([8, 'after']);
  });

  it('a write binding is validated against the schema derived from its annotation', async () => {
    const { executor: ex } = executor(() => ({ outcome: Pass, bindings: { count: 'seven' } }));
    const error = await run(ex, () => writes.counts()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutputValidationError);
    expect((error as OutputValidationError).target).toEqual({ kind: 'binding', name: 'count' });
  });

  it('an explicit schema in the wrapper options wins over the annotation', async () => {
    const { executor: ex } = executor(() => ({ outcome: Pass, bindings: { count: 1.5 } }));
    await expect(run(ex, () => writes.strict())).rejects.toBeInstanceOf(OutputValidationError);
    const loose = executor(() => ({ outcome: Pass, bindings: { count: 1.5 } }));
    expect(await run(loose.executor, () => writes.counts())).toEqual([1.5, 'before']);
  });

  it('a read binding in its temporal dead zone fails as unbound before the executor runs', async () => {
    const { executor: ex, requests } = executor(() => ({ outcome: Pass }));
    const error = await run(ex, () => writes.tdz()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BindingResolutionError);
    expect(error).toMatchObject({ bindingName: 'later', reason: 'unbound' });
    expect(requests).toHaveLength(0);
  });

  it('a template block renders its interpolation at run time without creating bindings from it', async () => {
    const { executor: ex, requests } = executor(() => ({ outcome: Pass, bindings: { out: 'done' } }));
    expect(await run(ex, () => writes.topic('<secret> plans'))).toBe('done');
    const program = requests[0]!.program;
    expect(program.text).toBe('Write about \\<secret> plans into <:out>.');
    expect(program.readBindingNames).toEqual([]);
    expect(program.writeBindingNames).toEqual(['out']);
  });

  it('a decide block uses the same rewrite: only pass is allowed and its one write binding is assigned', async () => {
    const { executor: ex, requests } = executor((request) => ({
      outcome: Pass,
      bindings: { choice: (request.stepContext.inputBindings.options as string[])[1] },
    }));
    expect(await run(ex, () => writes.choose(['a', 'b']))).toBe('b');
    expect(requests[0]!.allowedOutcomes).toEqual(['pass']);
  });

  it('the step lifecycle receives the terminal record after the locals are assigned (seed 001)', async () => {
    const { executor: ex } = executor(() => ({ outcome: Pass, bindings: { x: 42 } }));
    const seen: number[] = [];
    const out = await run(ex, () => scope({ oversight: { onStepFinished: () => void seen.push(writes.current()) } }, () => writes.observed()));
    expect(out).toBe(42);
    expect(seen).toEqual([42]);
  });
});

