/**
 * Attack: the core reports what it refuses to model code through two process-wide sinks, and the first installation
 * stands. The harness installed its own at its first run, so in a process whose first run was a core-only one (nh.run
 * with no Runner), a model expression could install the model's: every later harness run then recorded no anomaly
 * for a refused step-control call, and the host called the model's sink functions as its own (here a run that never
 * ended). The harness now installs them when it loads.
 *
 * This file must stay on its own: it needs a module graph in which no Runner has run before the core-only run.
 */
import { describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

const finish = () => toolCall('nh_output', { result: { kind: 'pass' } });

describe("attack: a core-only run's model expression installing the core's refusal sinks", () => {
  it("cannot: a later harness run still records the refusal, and the host never calls the model's functions", async () => {
    const calls: string[] = [];
    const install = `(() => {
      nh.setRefusalSink(() => calls.push('refusal sink'));
      nh.setLateRefusalSink({ capture: () => { calls.push('capture'); }, report: () => { calls.push('report'); }, refused: (e) => e });
      return 'installed';
    })()`;
    const core = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: install }), finish()] })]);
    await nh.run(new nh.AgentExecutor({ model: core }), () => nh.scope({ taskReferences: { nh, calls } }, () => nh.step({ program: 'execute\nGo.' })));
    // A core-only run has no ledger: its refused attempts are noted outside Runners.
    expect(nh.anomaliesOutsideRunners().map((a) => [a.anomalyKind, (a.detail as { control?: unknown }).control])).toEqual([
      ['operator_control_in_run', 'setRefusalSink'],
    ]);

    const attack = `(() => { try { nh.currentStepContext().markFinished(); return 'called'; } catch (e) { return e.name; } })()`;
    const model = new ScriptedModel([() => ({ toolCalls: [toolCall('nh_evaluate', { expression: attack }), finish()] })]);
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
    const ended = await Promise.race([
      runner.run(() => nh.step({ program: 'execute\nGo.' }), { grant: { capabilities: [], references: { nh } } }).then(() => 'ended'),
      new Promise((resolve) => setTimeout(() => resolve('still running after 5 s'), 5000).unref()),
    ]);
    expect(ended).toBe('ended');
    const events = runner.ledger.select({});
    expect((events.find((e) => e.kind === 'operation')!.data as { valuePreview?: string }).valuePreview).toBe('"StepControlRefusedError"');
    expect(events.filter((e) => e.kind === 'trace.anomaly').map((e) => e.status)).toEqual(['step_control_from_model_code']);
    expect(calls).toEqual([]);
  });
});
