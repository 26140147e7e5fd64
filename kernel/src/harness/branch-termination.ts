/**
 * A parent's forced termination of one descendant dispatch branch (seed 002, "Branch termination"), behind
 * RunContext.terminateBranch. The branch is the dispatch node and the active dispatch nodes and Natural executions
 * under it. The host closes it first (its seams refuse what it submits from then on), asks the run's termination
 * mechanism with a branch-scoped target, and only on established cessation records each affected outcome once and
 * reports completion. A request or an acknowledgement alone establishes nothing: without cessation nothing terminal
 * is recorded for the branch and it stays closed; what still unwinds records its own outcome.
 */
import { modelCodeRunning, taintedByModelCode } from '../core/index.js';
import { currentHostFrame, insideUntrustedRead, refuseInteriorControl } from './host-context.js';
import { HostIntegrityError } from './integrity-errors.js';
import { append, mapGet, mapHas, mapKeyList, mapSet, objectFreeze } from './intrinsics.js';
import { recordRealmChanges } from './realm-integrity.js';
import { BranchTerminationRefusedError, type BranchTerminationRefusal } from './run-errors.js';
import type { RunHost } from './run-host.js';
import type { TerminationTarget } from './termination.js';

/** Parent links followed at most (the allocation's depth bound is far below it). */
const MAX_HOPS = 64;

/** Asks the run's mechanism (the Runner's captured service, on the loaded built-ins); never rejects. */
export type AskTermination = (target: TerminationTarget) => Promise<{ ceased: boolean }>;

/**
 * Requests forced termination of the branch rooted at dispatch node `nodeId`. Resolves true only once the mechanism
 * established cessation and every affected execution and node has its terminal event; false otherwise. Refusals
 * (model code, another run's frame, a closed run, an id that is no active descendant dispatch node) throw.
 */
export async function terminateBranch(host: RunHost, ask: AskTermination, nodeId: unknown, reason: unknown): Promise<boolean> {
  // Model code (an expression, generated code, an operation body, a callback one planted) never reaches the mechanism.
  if (modelCodeRunning() || taintedByModelCode() !== undefined || insideUntrustedRead()) {
    refuseInteriorControl('terminateBranch');
    throw new HostIntegrityError({ attempt: 'terminate-branch-from-model-code', detail: 'terminating a dispatch branch is an operator control of the parent; model code and operation bodies may not use it' });
  }
  // A non-string id is named by its type only: converting it could run its code (a toString, a proxy trap).
  const id = typeof nodeId === 'string' ? nodeId : `<${typeof nodeId}>`;
  const refuse = (why: BranchTerminationRefusal, detail: string): never => {
    throw new BranchTerminationRefusedError({ runId: host.runId, nodeId: id, reason: why, detail });
  };
  const frame = currentHostFrame();
  if (frame !== undefined && frame.host !== host) {
    host.refuseOtherRun(frame, { control: 'terminateBranch', nodeId: id });
    refuse('other-run', `this context belongs to run ${host.runId}, not to the run calling it; use that run's own context`);
  }
  if (host.state !== 'running') {
    refuse('run-closed', host.ended ? 'the run has ended, so it has no branch left to terminate' : 'the run is terminating; RunHandle.terminate() and finalize() decide its branches now');
  }
  // The caller: the execution or node whose frame this is; the composition itself (or an operator holding the
  // context outside any frame) is the run root, of which every node of the run is a descendant.
  const callerId = frame?.host === host ? frame.submitterId : host.runId;
  recordRealmChanges(host, callerId);
  if (typeof nodeId !== 'string' || !mapHas(host.activeDispatches, id)) {
    const started = startOf(host, id);
    if (started === undefined) refuse('unknown-node', 'no dispatch node with this id was started in this run; pass the subjectId of one of its dispatch.start events (ctx.history({ kind: "dispatch.start" }))');
    if (started!.kind === 'execution.start') refuse('not-dispatch-node', 'it is a Natural execution, not a dispatch node; terminate the dispatch node it runs under, or the whole run with RunHandle.terminate()');
    refuse('not-active', 'the dispatch node already has its terminal event (dispatch.end), so there is nothing left to terminate');
  }
  if (callerId !== host.runId && !runsUnder(host, id, callerId)) {
    refuse('not-descendant', `the dispatch node does not run under ${callerId}, the execution asking; a parent may terminate only branches started from it or from its descendants`);
  }
  const branches = activeSubtree(host, id);
  // Closed before the mechanism is asked: from now on the seams refuse what the branch submits, whatever it answers.
  // Its ended nodes and executions are closed too: host code of one (a capability body it left running) still submits
  // under its id, which the live parent links no longer lead back to the branch.
  const ended = endedSubtree(host, id);
  host.closeBranch(ended.length === 0 ? branches : [...branches, ...ended]);
  // Frozen: the service cannot change which branches the host records once it answers.
  const target: TerminationTarget = objectFreeze({ runId: host.runId, branches: objectFreeze(branches), includesRoot: false, scope: 'branch' as const, branchRoot: id });
  const report = await ask(target);
  if (report.ceased !== true) return false;
  // Cessation is established: each affected outcome is recorded once (one that ended on its own meanwhile keeps its
  // own record), executions first, as for the run's own cessation. After the run's end nothing can be recorded.
  const data = { reason: typeof reason === 'string' ? reason : 'branch terminated by its parent' };
  for (let i = 0; i < branches.length; i++) if (mapHas(host.inflight, branches[i]!)) host.endTerminatedExecution(branches[i]!, data);
  for (let i = 0; i < branches.length; i++) host.endDispatch(branches[i]!, 'terminated', data);
  for (let i = 0; i < branches.length; i++) {
    const b = branches[i]!;
    if (!host.ledger.hasTerminal('execution.end', b) && !host.ledger.hasTerminal('dispatch.end', b)) return false;
  }
  return true;
}

/** The start event of `id` in this run, if any. */
function startOf(host: RunHost, id: string): { kind: 'dispatch.start' | 'execution.start'; parentId: string | undefined } | undefined {
  const events = host.ledger.select({ runId: host.runId, subjectId: id, kind: ['dispatch.start', 'execution.start'] });
  const first = events[0];
  return first === undefined ? undefined : { kind: first.kind as 'dispatch.start' | 'execution.start', parentId: first.parentId };
}

/** The parent of an execution or node: from the live maps, else (it ended) from its start event. */
function parentOf(host: RunHost, id: string): string | undefined {
  return host.liveParentOf(id) ?? startOf(host, id)?.parentId;
}

/** True when `ancestor` is on the parent chain of `id` (not `id` itself). */
function runsUnder(host: RunHost, id: string, ancestor: string): boolean {
  let current = parentOf(host, id);
  for (let hops = 0; current !== undefined && hops < MAX_HOPS; hops++) {
    if (current === ancestor) return true;
    if (current === host.runId) return false;
    current = parentOf(host, current);
  }
  return false;
}

/** `nodeId` followed by every active execution and dispatch node under it (captured iteration, as in activeBranches). */
function activeSubtree(host: RunHost, nodeId: string): string[] {
  const out: string[] = [nodeId];
  const candidates = mapKeyList(host.inflight);
  const nodes = mapKeyList(host.activeDispatches);
  for (let i = 0; i < nodes.length; i++) if (nodes[i] !== nodeId) append(candidates, nodes[i]!);
  for (let i = 0; i < candidates.length; i++) if (runsUnder(host, candidates[i]!, nodeId)) append(out, candidates[i]!);
  return out;
}

/** Every execution and dispatch node under `nodeId` that has ended, from the run's start events (parent links kept there). */
function endedSubtree(host: RunHost, nodeId: string): string[] {
  const starts = host.ledger.select({ runId: host.runId, kind: ['dispatch.start', 'execution.start'] });
  const parents = new Map<string, string | undefined>();
  for (let i = 0; i < starts.length; i++) mapSet(parents, starts[i]!.subjectId, starts[i]!.parentId);
  const out: string[] = [];
  for (let i = 0; i < starts.length; i++) {
    const candidate = starts[i]!.subjectId;
    if (candidate === nodeId || mapHas(host.activeDispatches, candidate) || mapHas(host.inflight, candidate)) continue;
    let current = mapGet(parents, candidate);
    for (let hops = 0; current !== undefined && hops < MAX_HOPS; hops++) {
      if (current === nodeId) {
        append(out, candidate);
        break;
      }
      current = mapGet(parents, current);
    }
  }
  return out;
}
