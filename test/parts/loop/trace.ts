/** Test helper: a loop whose hooks and event subscribers write one ordered trace, so tests can assert exact sequences. */
import { HarnessLoop, type GateDecision, type LoopEvent, type LoopStep, type PlanStep } from '../../../kernel/src/parts/index.js';

type Gate = (step: LoopStep) => GateDecision;

export interface TracedLoop {
  readonly loop: HarnessLoop;
  /** `hook <name> <step> [...]` and `event <seq> <kind> [...]` lines in the order they happened. */
  readonly trace: string[];
  /** Number of times any hook subscriber ran. */
  hookCalls(): number;
}

export function describeEvent(event: LoopEvent): string {
  const head = `event ${event.seq} ${event.kind}`;
  switch (event.kind) {
    case 'loop.start':
      return `${head} ${event.payload.plan.map((s) => s.id).join(',')}`;
    case 'loop.transition':
      return `${head} ${event.payload.from}->${event.payload.to}`;
    case 'step.start':
      return `${head} ${event.payload.stepId}`;
    case 'tool.call':
      return `${head} ${event.payload.stepId} ${event.payload.toolName} #${event.payload.callNumber}`;
    case 'tool.result':
      return `${head} ${event.payload.stepId} #${event.payload.callNumber}`;
    case 'tool.error':
      return `${head} ${event.payload.stepId} ${event.payload.error}`;
    case 'step.end':
      return `${head} ${event.payload.stepId} ${event.payload.outcome}`;
    case 'loop.turn':
      return `${head} turn=${event.payload.turn} cursor=${event.payload.cursor}`;
    case 'loop.pause':
      return `${head} ${event.payload.budget}`;
    case 'loop.done':
      return `${head} ${event.payload.reason}`;
    case 'budget.set':
      return `${head} tools=${event.payload.maxToolCalls} turns=${event.payload.maxTurns}`;
    case 'hook.error':
      return `${head} ${event.payload.hook} ${event.payload.stepId}`;
  }
}

export function tracedLoop(options: {
  plan: readonly PlanStep[];
  budget?: { maxToolCalls?: number | null; maxTurns?: number | null };
  beforeStep?: Gate;
  beforeToolCall?: Gate;
}): TracedLoop {
  const trace: string[] = [];
  let calls = 0;
  const loop = new HarnessLoop({
    plan: options.plan,
    budget: options.budget,
    hooks: {
      before_step: [
        ({ step }) => {
          calls += 1;
          trace.push(`hook before_step ${step.id}`);
          return options.beforeStep?.(step);
        },
      ],
      before_tool_call: [
        ({ step }) => {
          calls += 1;
          trace.push(`hook before_tool_call ${step.id}`);
          return options.beforeToolCall?.(step);
        },
      ],
      after_step: [
        ({ step, outcome }) => {
          calls += 1;
          trace.push(`hook after_step ${step.id} ${outcome}`);
        },
      ],
      on_error: [
        ({ step, error }) => {
          calls += 1;
          trace.push(`hook on_error ${step.id} ${error}`);
        },
      ],
    },
  });
  loop.subscribe('*', (event) => trace.push(describeEvent(event)));
  return { loop, trace, hookCalls: () => calls };
}

/** Three steps that all require a tool; the seed's example plan. */
export const threeToolSteps: readonly PlanStep[] = [
  { id: 's1', description: 'search the docs', requiresTool: true, toolName: 'search', toolArgs: { q: 'loop' } },
  { id: 's2', description: 'delete the cache', requiresTool: true, toolName: 'rm_rf', toolArgs: { path: '/tmp/cache' } },
  { id: 's3', description: 'write the summary', requiresTool: true, toolName: 'write_file', toolArgs: { path: 'out.md' } },
];

/** Every step.start is followed by exactly one step.end for the same step before the next step.start. */
export function unpairedSteps(events: readonly LoopEvent[]): string[] {
  const problems: string[] = [];
  let open: string | null = null;
  for (const event of events) {
    if (event.kind === 'step.start') {
      if (open !== null) problems.push(`${open} has no step.end before ${event.payload.stepId} starts`);
      open = event.payload.stepId;
    } else if (event.kind === 'step.end') {
      if (open !== event.payload.stepId) problems.push(`step.end ${event.payload.stepId} without its step.start`);
      open = null;
    }
  }
  if (open !== null) problems.push(`${open} never ends`);
  return problems;
}
