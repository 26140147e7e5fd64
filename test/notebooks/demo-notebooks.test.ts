/**
 * Runs every notebook in notebooks/ headless through the real kernel server and Session (the runner behind
 * `npm run nb`), and checks what each one is meant to show, not only that no cell failed.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startNotebookRunner, type NotebookRunner } from '../../kernel/src/server/runner/nb-runner.js';
import type { NotebookDocument } from '../../kernel/src/server/runner/nb-format.js';
import { NighthawkMime } from '../../shared/mime.js';
import { cellWith, displaysOf, errorsIn, resultOf, runsOf, stdoutOf } from './support.js';

const notebooksDir = fileURLToPath(new URL('../../notebooks/', import.meta.url));
const ASSERTED = ['getting-started', 'harness-loop', 'live-model', 'operation-feedback', 'perimeter-audit', 'retained-functions'];

// Demos must run without any provider: the kernel processes inherit this environment.
for (const name of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'NIGHTHAWK_RECORD_CASSETTE']) delete process.env[name];

let runner: NotebookRunner;
beforeAll(async () => {
  // @jupyterlab/services narrates WebSocket and kernel status on console.debug.
  vi.spyOn(console, 'debug').mockImplementation(() => {});
  runner = await startNotebookRunner({ spareKernels: 1, log: () => {} });
}, 120_000);
afterAll(async () => {
  await runner?.close();
});

async function execute(name: string): Promise<NotebookDocument> {
  const result = await runner.run(path.join(notebooksDir, `${name}.ipynb`));
  const failure = result.failed && `cell ${result.failed.index} \`${result.failed.firstLine}\`: ${result.failed.error?.ename}: ${result.failed.error?.evalue}`;
  expect(failure).toBeUndefined();
  expect(errorsIn(result.notebook)).toEqual([]);
  expect(result.notebook.cells.filter((c) => c.cell_type === 'code').every((c) => typeof c.execution_count === 'number')).toBe(true);
  return result.notebook;
}

describe('the demo notebooks, executed headless', () => {
  it('every notebook in notebooks/ is run and asserted by this suite', () => {
    const present = readdirSync(notebooksDir).filter((f) => f.endsWith('.ipynb')).map((f) => f.replace(/\.ipynb$/, '')).sort();
    expect(present).toEqual(ASSERTED);
  });

  it('getting-started: a Natural function returns the typed label and its run is shown inline', { timeout: 60_000 }, async () => {
    const nb = await execute('getting-started');
    const call = cellWith(nb, 'await triage(');
    expect(resultOf(call)).toBe('bug');
    const [run] = runsOf(call);
    expect(run).toMatchObject({ functionName: 'triage', status: 'completed' });
    expect(run!.executions[0]!.commit?.committed).toEqual({ label: 'bug' });
    expect(resultOf(cellWith(nb, 'valid: ${'))).toBe('label is "bug" (string); valid: true');
    const [ledger] = displaysOf(cellWith(nb, 'nh.displayLedger'), NighthawkMime.ledger) as { entries: { status: string }[] }[];
    expect(ledger!.entries.map((e) => e.status)).toEqual(['completed', 'completed', 'completed']);
    const inline = cellWith(nb, 'await triageInline(');
    expect(resultOf(inline)).toBe('question (from the block)');
    expect(runsOf(inline)[0]).toMatchObject({ functionName: 'triageInline', status: 'completed' });
  });

  it('operation-feedback: refusal with guidance, correction, AbortStep, recovery, raise and a skipped sibling', { timeout: 60_000 }, async () => {
    const nb = await execute('operation-feedback');
    const calc = cellWith(nb, 'await calculate({})');
    expect(resultOf(calc)).toBe(2);
    const [calcRun] = runsOf(calc);
    const calcOps = calcRun!.executions[0]!.operations;
    expect(calcOps.map((o) => o.status)).toEqual(['rejected', 'completed', 'completed']);
    expect(calcOps[0]!.rejection).toEqual({ reason: 'This helper is unavailable.', guidance: 'Evaluate 1 + 1 instead.' });
    expect(stdoutOf(calc)).toContain('the model read: rejected: This helper is unavailable. (guidance: Evaluate 1 + 1 instead.)');

    const abort = cellWith(nb, 'await cleanUp({})');
    expect(resultOf(abort)).toBe('aborted: StepAbortedError: Step cleanUp was aborted at operation: Wiping a disk is never part of this task.');
    expect(runsOf(abort)[0]).toMatchObject({ status: 'failed', executions: [{ status: 'aborted', operations: [{ status: 'aborted', abortReason: 'Wiping a disk is never part of this task.' }] }] });

    const recovered = cellWith(nb, `await readPort({ config: '{ "port": 8080, }' })`);
    expect(resultOf(recovered)).toBe(8080);
    expect(runsOf(recovered)[0]!.executions[0]!.operations[0]).toMatchObject({ status: 'failed', failure: { errorClass: 'SyntaxError' } });

    const raised = cellWith(nb, 'await readPort({ config: "port=8080" })');
    expect(String(resultOf(raised))).toMatch(/^raised; cause is the original SyntaxError: true/);
    expect(runsOf(raised)[0]!.executions[0]!.status).toBe('raised');

    const tally = cellWith(nb, 'await tally({})');
    const ops = runsOf(tally)[0]!.executions[0]!.operations;
    expect(ops.map((o) => `${o.expression ?? o.kind}:${o.status}`)).toEqual([
      "record('A'):completed",
      'forbidden():rejected',
      "record('C'):skipped",
      '1 + 1:completed',
      'output:completed',
    ]);
    expect(ops[2]!.blockedByOperationId).toBe(ops[1]!.operationId);
    expect(stdoutOf(tally)).toContain('the model read: completed, rejected, skipped');
    const effectCells = nb.cells.filter((c) => c.cell_type === 'code' && c.source.join('').trim() === 'effects');
    expect(effectCells.map(resultOf)).toEqual([[], ['A']]);
  });

  it('retained-functions: the eval version is rejected, the retained function runs in a fresh run and stays unapproved', { timeout: 60_000 }, async () => {
    const nb = await execute('retained-functions');
    const propose = cellWith(nb, 'await proposeSlugify(');
    const [anomaly] = displaysOf(propose, NighthawkMime.traceAnomaly) as { anomalyKind: string }[];
    expect(anomaly!.anomalyKind).toBe('raw_dynamic_execution');
    expect(resultOf(propose)).toEqual([expect.stringMatching(/^GeneratedSourceRejectedError: .*eval is raw dynamic execution/)]);
    expect(runsOf(propose)[0]!.executions.map((e) => e.stepId)).toEqual(['propose-1', 'propose-2']);

    const reuse = cellWith(nb, 'await slugTitles(');
    expect(resultOf(reuse)).toEqual({ slugs: ['hello-notebook-world', 'retained-functions-101'], freshIdentity: true, sameDefinition: true });
    const proposeRunId = runsOf(propose)[0]!.runId;
    expect(runsOf(reuse)[0]).toMatchObject({ functionName: 'slugTitles', status: 'completed' });
    expect(runsOf(reuse)[0]!.runId).not.toBe(proposeRunId);

    expect(resultOf(cellWith(nb, 'generatedApproved'))).toEqual({
      generatedIsGenerated: true,
      generatedApproved: false,
      operatorWrittenApproved: true,
      approvalRoute: 'operator-submission',
    });
    expect(String(resultOf(cellWith(nb, '"outside any run"')))).toMatch(/^RunTerminatedError: .*carries no authority outside its run/);
  });

  it('harness-loop: goal met past the denied step, a budget pause, replay equal to the live state, events in the ledger', { timeout: 60_000 }, async () => {
    const nb = await execute('harness-loop');
    const first = cellWith(nb, 'label: "seed-004 plan" }');
    expect(resultOf(first)).toEqual({ kind: 'done', reason: 'goal_met' });
    expect(stdoutOf(first)).toContain('#12 tool.error s2 hook_abort:tool rm_rf is deny-listed');
    expect(stdoutOf(first)).toContain('pull request for s3: ran write_file');
    expect(resultOf(cellWith(nb, 'denied: liveEvents'))).toMatchObject({ toolCalls: ['s1', 's3'], denied: ['hook_abort:tool rm_rf is deny-listed'] });
    expect(resultOf(cellWith(nb, 'paused: budgeted.paused'))).toEqual({
      paused: { kind: 'paused', reason: 'budget_exceeded', budget: 'tool_calls' },
      finished: { kind: 'done', reason: 'goal_met' },
    });
    expect(resultOf(cellWith(nb, 'nh.replayLoop(liveEvents)'))).toMatchObject({ replayEqualsLive: true, replayed: { state: 'done', cursor: 3, toolCalls: 2 } });
    const [ledger] = displaysOf(cellWith(nb, 'nh.displayLedger(liveRunId)'), NighthawkMime.ledger) as { entries: { kind: string; status?: string }[] }[];
    const parts = ledger!.entries.filter((e) => e.kind === 'part.event').map((e) => e.status);
    expect(parts[0]).toBe('loop.start');
    expect(parts).toContain('tool.error');
    expect(parts.at(-1)).toBe('loop.done');
    expect(ledger!.entries.filter((e) => e.kind === 'capability.call').map((e) => e.status)).toEqual(['completed', 'completed']);
  });

  it('perimeter-audit: refused without the grant, attempt and completion audited with it, unmediated write as an anomaly', { timeout: 60_000 }, async () => {
    const nb = await execute('perimeter-audit');
    expect(resultOf(cellWith(nb, 'let refusedRunId'))).toBe("CapabilityRefusedError: Capability 'check_service' was refused (not-granted): it is not in the grant in force here");
    const [refusedLedger] = displaysOf(cellWith(nb, 'nh.displayLedger(refusedRunId)'), NighthawkMime.ledger) as { entries: { kind: string; status?: string }[] }[];
    expect(refusedLedger!.entries.map((e) => `${e.kind}:${e.status ?? ''}`)).toEqual(['run.entry:', 'capability.refused:not-granted', 'run.end:failed']);
    expect(resultOf(cellWith(nb, 'nh.displayLedger(refusedRunId)'))).toEqual({ auditRecords: 0 });

    const granted = cellWith(nb, 'session.configure({ grant:');
    expect(resultOf(granted)).toBe('reachable');
    expect(runsOf(granted)[0]!.executions[0]!.operations[0]).toMatchObject({ toolName: 'check_service', status: 'completed' });
    expect(resultOf(cellWith(nb, '(await auditStore.list()).map('))).toEqual([
      {
        sequence: 1,
        capability: 'check_service',
        footprint: ['egress'],
        arguments: '{"path":"/inventory/status"}',
        status: 'completed',
        completion: { status: 'completed', summary: '{"service":"inventory","status":"ok","path":"/inventory/status"}' },
      },
    ]);

    const direct = cellWith(nb, 'await saveReport(');
    expect(String(resultOf(direct))).toMatch(/^UnmediatedPerimeterEffectError: Direct effect 'fs.writeFileSync'/);
    expect(displaysOf(direct, NighthawkMime.traceAnomaly)).toEqual([expect.objectContaining({ anomalyKind: 'unmediated_perimeter_effect' })]);
    expect(resultOf(cellWith(nb, 'fileWritten:'))).toEqual({ fileWritten: false, anomalies: [{ kind: 'unmediated_perimeter_effect', effect: 'fs.writeFileSync' }] });
  });

  it('live-model: without a configured endpoint it says so and replays the cassette to the recorded answer', { timeout: 60_000 }, async () => {
    const nb = await execute('live-model');
    expect(stdoutOf(cellWith(nb, 'const cassette ='))).toContain('No OPENAI_API_KEY or OPENAI_BASE_URL is set');
    const call = cellWith(nb, 'await triage(');
    expect(resultOf(call)).toBe('bug');
    expect(runsOf(call)[0]!.executions[0]!.operations.map((o) => o.status)).toEqual(['completed', 'completed', 'completed']);
  });
});
