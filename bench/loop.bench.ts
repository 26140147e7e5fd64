/**
 * Harness loop cost: a 100-step tool plan driven to completion (start + 100 resumes), beside a hand-written
 * loop making the same hook calls without the state table, event snapshots or freezing; and replay of the
 * recorded log beside the live run.
 */
import { HarnessLoop, replayLoop, type LoopEvent, type PlanStep } from '../kernel/src/parts/index.js';
import { report, sample } from './stats.js';

const plan: PlanStep[] = Array.from({ length: 100 }, (_, i) => ({ id: `s${i}`, description: `step ${i}`, requiresTool: true, toolName: 'tool', toolArgs: { i } }));
let sink = 0;
const hook = () => {
  sink += 1;
};

function live(): readonly LoopEvent[] {
  const loop = new HarnessLoop({ plan, hooks: { before_step: [hook], before_tool_call: [hook], after_step: [hook] } });
  let outcome = loop.start();
  while (outcome.kind === 'pull_request') outcome = loop.resume({ kind: 'ok', value: outcome.payload.callNumber });
  return loop.events;
}

function plain(): unknown[] {
  const log: unknown[] = [];
  for (const step of plan) {
    hook();
    log.push({ kind: 'step.start', stepId: step.id });
    hook();
    log.push({ kind: 'tool.call', stepId: step.id, args: step.toolArgs });
    log.push({ kind: 'step.end', stepId: step.id });
    hook();
    log.push({ kind: 'tool.result', stepId: step.id });
  }
  return log;
}

const recorded = live();
const stored = JSON.parse(JSON.stringify(recorded)) as unknown[];
const plainSamples = await sample(300, plain);
const liveSamples = await sample(300, live);
report('loop.run-100-tool-steps', liveSamples, plainSamples);
report('loop.replay-100-tool-steps', await sample(300, () => replayLoop(stored)), liveSamples);
if (sink < 0) console.log(sink);
