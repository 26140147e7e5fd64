/**
 * The exploration loop of seed 001 as a scaffold composition with no authority of its own: a Natural
 * block proposes a CodeProposal through a typed write binding, deterministic code submits it to the
 * run's one dispatch, the application's acceptance checks assess it, and the loop iterates until every
 * finding passes or the attempts run out. Everything it does goes through the RunContext it is given,
 * so the run's grant, policy and allocation bound it; it never approves anything.
 */
import { newId, step, UsageError } from '../../core/index.js';
import {
  AllocationExhaustedError,
  DispatchRejectedError,
  NaturalExecutionError,
  RetainedFunction,
  RunTerminatedError,
  definitionIdOf,
  parseCodeProposal,
  type CodeProposal,
  type Materialization,
  type RunContext,
} from '../../harness/index.js';
import { selectExplorationEvents, stringField } from './evidence.js';
import { PROPOSE_PROGRAM, explorationProposalSchema } from './program.js';
import { findingSchema, type ExplorationAttempt, type ExplorationOptions, type ExplorationResult, type Finding } from './types.js';

const DETAIL_LIMIT = 2_000;

/** Runs an exploration inside the current run. Host stops (allocation, termination) propagate as their typed errors. */
export async function explore(ctx: RunContext, options: ExplorationOptions): Promise<ExplorationResult> {
  checkOptions(options);
  const explorationId = newId('exp_');
  const stepId = `exploration.propose#${explorationId}`;
  const startMark = lastSequence(ctx);
  const attempts: ExplorationAttempt[] = [];
  const seeds = { explorationId, executionIds: new Set<string>(), dispatchNodeIds: new Set<string>(), materializationIds: new Set<string>() };
  const evidence = () => Object.freeze({ explorationId, attempts: Object.freeze([...attempts]), ledger: selectExplorationEvents(ctx.history({ afterSequence: startMark }), seeds) });
  ctx.recordPartEvent('exploration', { kind: 'exploration.start', explorationId, exportName: options.exportName, maxAttempts: options.maxAttempts, checks: options.checks.length });
  try {
    for (let n = 1; n <= options.maxAttempts; n++) {
      const mark = lastSequence(ctx);
      const proposed = await propose(ctx, options, attempts, stepId, mark);
      if (proposed.executionId) seeds.executionIds.add(proposed.executionId);
      const assessed = proposed.proposal ? await assess(ctx, options, proposed.proposal, mark) : { findings: [noProposal()], materialization: undefined, dispatchNodeId: undefined };
      if (assessed.dispatchNodeId) seeds.dispatchNodeIds.add(assessed.dispatchNodeId);
      if (assessed.materialization) seeds.materializationIds.add(assessed.materialization.materializationId);
      const passed = assessed.findings.length > 0 && assessed.findings.every((f) => f.passed);
      const attempt: ExplorationAttempt = Object.freeze({
        attempt: n,
        executionId: proposed.executionId,
        definitionId: proposed.proposal ? definitionIdOf(proposed.proposal) : undefined,
        dispatchNodeId: assessed.dispatchNodeId,
        source: proposed.proposal?.source,
        passed,
        findings: Object.freeze(assessed.findings.map((f) => Object.freeze({ ...f }))),
      });
      attempts.push(attempt);
      ctx.recordPartEvent('exploration', { kind: 'attempt.assessed', explorationId, attempt: n, definitionId: attempt.definitionId, dispatchNodeId: attempt.dispatchNodeId, passed, findings: attempt.findings });
      if (passed && assessed.materialization) {
        ctx.recordPartEvent('exploration', { kind: 'exploration.end', explorationId, outcome: 'candidate', definitionId: attempt.definitionId, attempts: n });
        const selected = evidence();
        const retained = RetainedFunction.retain(assessed.materialization, options.exportName, { explorationId, attempts: selected.attempts, ledger: selected.ledger });
        return Object.freeze({ kind: 'candidate', retained, evidence: selected });
      }
    }
  } catch (error) {
    ctx.recordPartEvent('exploration', { kind: 'exploration.end', explorationId, outcome: 'failed', attempts: attempts.length, error });
    throw error;
  }
  ctx.recordPartEvent('exploration', { kind: 'exploration.end', explorationId, outcome: 'exhausted', attempts: attempts.length });
  const selected = evidence();
  return Object.freeze({ kind: 'exhausted', attempts: selected.attempts, evidence: selected });
}

function checkOptions(options: ExplorationOptions): void {
  if (typeof options.task !== 'string') throw new UsageError('explore(): task must be a string.');
  if (typeof options.exportName !== 'string' || options.exportName.length === 0) throw new UsageError('explore(): exportName must name the export to assess.');
  if (!Array.isArray(options.checks) || options.checks.length === 0 || !options.checks.every((c) => typeof c === 'function')) {
    throw new UsageError('explore(): checks must be a non-empty list of acceptance check functions.');
  }
  if (!Number.isInteger(options.maxAttempts) || options.maxAttempts < 1) throw new UsageError('explore(): maxAttempts must be a positive integer.');
}

function lastSequence(ctx: RunContext): number {
  const events = ctx.history();
  return events.length ? events[events.length - 1]!.sequence : 0;
}

/** The Natural block: earlier findings and source enter as read bindings; the proposal leaves through one typed write binding. */
async function propose(ctx: RunContext, options: ExplorationOptions, attempts: readonly ExplorationAttempt[], stepId: string, mark: number) {
  const latest = attempts[attempts.length - 1];
  const values = {
    task: options.task,
    export_name: options.exportName,
    previous_findings: attempts.map((a) => ({ attempt: a.attempt, findings: a.findings })),
    previous_source: latest?.source ?? null,
    available_dependencies: options.availableDependencies ?? [],
  };
  try {
    const { bindings } = await step({ program: PROPOSE_PROGRAM, stepId, values, writes: { proposal: explorationProposalSchema } });
    const parsed = parseCodeProposal(bindings.proposal);
    return { proposal: parsed.ok ? parsed.proposal : undefined, executionId: executionOf(ctx, stepId, mark) };
  } catch (error) {
    if (error instanceof NaturalExecutionError) ctx.recordPartEvent('exploration', { kind: 'attempt.failed', stepId, executionId: error.executionId, failure: error.failure });
    throw error;
  }
}

function executionOf(ctx: RunContext, stepId: string, mark: number): string | undefined {
  const starts = ctx.history({ kind: 'execution.start', afterSequence: mark }).filter((e) => stringField(e.data, 'stepId') === stepId);
  return starts[starts.length - 1]?.subjectId;
}

/** Dispatches the proposal and runs the checks. Rejections and check failures become findings; host stops propagate. */
async function assess(ctx: RunContext, options: ExplorationOptions, proposal: CodeProposal, mark: number): Promise<{ findings: Finding[]; materialization: Materialization | undefined; dispatchNodeId: string | undefined }> {
  let materialization: Materialization;
  try {
    materialization = await ctx.dispatch(proposal);
  } catch (error) {
    rethrowHostStop(ctx, error, mark, 'dispatch');
    return { findings: [failed('dispatch', error)], materialization: undefined, dispatchNodeId: nodeOf(ctx, definitionIdOf(proposal), mark) };
  }
  const base = { materialization, dispatchNodeId: materialization.nodeId };
  if (typeof materialization.exports[options.exportName] !== 'function') {
    return { ...base, findings: [{ check: 'export', passed: false, detail: `The source has no exported function named '${options.exportName}' (exports: ${Object.keys(materialization.exports).join(', ') || 'none'}).` }] };
  }
  const findings: Finding[] = [];
  for (const [i, check] of options.checks.entries()) {
    let returned: unknown;
    try {
      returned = await check(materialization.exports, materialization);
    } catch (error) {
      rethrowHostStop(ctx, error, mark, 'check');
      findings.push(failed(check.name || `check#${i + 1}`, error));
      continue;
    }
    const parsed = findingSchema.array().safeParse(returned);
    if (!parsed.success) throw new UsageError(`explore(): acceptance check ${check.name || `#${i + 1}`} must return an array of { check, passed, detail? } findings.`);
    findings.push(...parsed.data.map((f) => (f.detail === undefined ? { check: f.check, passed: f.passed } : { check: f.check, passed: f.passed, detail: bound(f.detail) })));
  }
  return { ...base, findings };
}

function nodeOf(ctx: RunContext, definitionId: string, mark: number): string | undefined {
  return ctx.history({ kind: 'dispatch.start', status: 'materialization', afterSequence: mark }).find((e) => stringField(e.data, 'definitionId') === definitionId)?.subjectId;
}

/**
 * Allocation exhaustion, termination and a closed run end the exploration; everything else is an assessment. What a
 * check throws comes through the generated code it called, which can throw a look-alike of any host error: there
 * the decision is the run's record (its signal, an allocation.exhausted since the attempt began), not the class.
 */
function rethrowHostStop(ctx: RunContext, error: unknown, mark: number, from: 'dispatch' | 'check'): void {
  if (ctx.signal.aborted) throw error;
  if (ctx.history({ kind: 'allocation.exhausted', afterSequence: mark }).length > 0) throw error;
  if (from === 'check') return;
  if (error instanceof AllocationExhaustedError || error instanceof RunTerminatedError) throw error;
  if (error instanceof DispatchRejectedError && error.reason === 'run-closed') throw error;
  if (error instanceof NaturalExecutionError && (error.failure === 'allocation_exhausted' || error.failure === 'terminated')) throw error;
}

function failed(check: string, error: unknown): Finding {
  return { check, passed: false, detail: bound(describeThrown(error)) };
}

/**
 * What a check threw, read as data: own data properties only, never a getter, `toString` or proxy trap. The value
 * may come from generated code, whose functions called here (outside its dispatch node) are refused, and that
 * refusal escaping would end the exploration instead of failing the attempt.
 */
function describeThrown(error: unknown): string {
  if (error === null || (typeof error !== 'object' && typeof error !== 'function')) return `${typeof error}: ${String(error)}`;
  try {
    const message = dataString(error, 'message');
    let name: string | undefined;
    for (let at: object | null = error, depth = 0; at !== null && name === undefined && depth < 16; at = Reflect.getPrototypeOf(at), depth++) name = dataString(at, 'name');
    return message === undefined ? `${name ?? typeof error}: (no readable message)` : `${name ?? 'Error'}: ${message}`;
  } catch {
    return `${typeof error}: (a value that could not be read)`;
  }
}

function dataString(target: object, key: string): string | undefined {
  const descriptor = Reflect.getOwnPropertyDescriptor(target, key);
  return descriptor !== undefined && 'value' in descriptor && typeof descriptor.value === 'string' ? descriptor.value : undefined;
}

function noProposal(): Finding {
  return { check: 'proposal', passed: false, detail: 'No proposal was assigned to <:proposal>.' };
}

function bound(text: string): string {
  return text.length <= DETAIL_LIMIT ? text : `${text.slice(0, DETAIL_LIMIT - 12)}… (truncated)`;
}
