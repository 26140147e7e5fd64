/**
 * The attacker's harness. One attack is a JavaScript function body that receives `nh` (the library's
 * public module, which any code in a notebook can reach) and `probe` (test-provided facts such as the
 * audit database path) and returns a short string. It runs from one of three places inside a real
 * Session run that also does real work (a granted egress capability records to a SQLite audit store):
 *
 * - `expression`: a model `nh_evaluate` expression proposed by a scripted model;
 * - `generated`: generated code dispatched through the host (define-and-invoke);
 * - `session-function`: the body of an operator-approved SessionFunction.
 *
 * `attack()` runs the case and a baseline (the same run with a harmless body) and returns what both
 * produced, so a test can assert that the ledger and the audit database are exactly what the real
 * run produced and that a trace anomaly names the attempt.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { z } from 'zod';
import * as nh from '../../kernel/src/index.js';
import { GeneratedCodeOutsideDispatchError } from '../../kernel/src/harness/generated/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

export type Place = 'expression' | 'generated' | 'session-function';
export const PLACES: readonly Place[] = ['expression', 'generated', 'session-function'];

const finish = () => toolCall('nh_output', { result: { kind: 'pass' } });

export interface AttackOptions {
  /** Narrows the Session's composition policy (default: egress permitted). */
  readonly policy?: readonly nh.PerimeterClass[];
  /** Extra facts for the attacker. */
  readonly probe?: Record<string, unknown>;
  /**
   * The operator builds the Session on a Ledger of its own over a SQLite ledger store (as a notebook cell
   * can): the attacker finds both in `probe.ledger` / `probe.ledgerStore` and the file at `probe.ledgerPath`.
   */
  readonly operatorLedger?: boolean;
  /**
   * The egress capability is an object literal the operator wrote (the Capability interface, not
   * defineCapability): mutable, and reachable as `probe.grant.capabilities[0]`.
   */
  readonly literalCapability?: boolean;
  /**
   * The operator declared a synchronous function in a cell before the run: its SessionFunction is
   * `probe.helper` (`helper(a, b)` returns `a + b`).
   */
  readonly sessionHelper?: boolean;
}

export interface AttackResult {
  /** What the attack body returned, or `threw:<ErrorName>: message`. */
  readonly outcome: string;
  readonly session: nh.Session;
  readonly runId: string;
  /** Every ledger event of the attacked run. */
  readonly events: readonly nh.LedgerEvent[];
  /** trace.anomaly kinds of the run plus the Session's late anomaly record. */
  readonly anomalies: readonly string[];
  /** The governance projection of the run (no anomalies, refusals or operation records). */
  readonly projection: readonly string[];
  /** Rows of the SQLite audit database, read through a separate connection. */
  readonly auditRows: readonly string[];
  /** Arguments the egress capability body actually ran with. */
  readonly egressCalls: readonly unknown[];
  /** How the run ended for its caller. */
  readonly runOutcome: string;
  readonly auditPath: string;
  /** Executions or dispatch nodes without exactly one terminal event. */
  readonly badTerminals: readonly string[];
  /** Tables and triggers of the audit database file. */
  readonly auditSchema: readonly string[];
  /**
   * Refusals of model-made code that reached the event loop. A refused late callback has no caller to
   * throw to; the host records it and leaves the callback inert, so this must stay empty.
   */
  readonly escaped: readonly string[];
}

/** Wraps the attack body so each place can run it and report its result. */
const wrap = (body: string) =>
  `(async () => { try { probe.outcome = String(await (async (nh, probe) => { ${body} })(nh, probe)); } catch (e) { probe.outcome = 'threw:' + (e && e.name) + ': ' + (e && e.message); } return 'reported'; })()`;

const baselines = new Map<string, Promise<AttackResult>>();

/** Runs the attack and (once per place and options) the same run with a harmless body. */
export async function attack(place: Place, body: string, options: AttackOptions = {}): Promise<AttackResult & { baseline: AttackResult }> {
  const key = `${place}:${JSON.stringify(options.policy ?? null)}:${options.operatorLedger === true}:${options.literalCapability === true}`;
  if (!baselines.has(key)) baselines.set(key, runCase(place, 'return "baseline";', options));
  const baseline = await baselines.get(key)!;
  const result = await runCase(place, body, options);
  return { ...result, baseline };
}

const stoppedBaselines = new Map<string, Promise<AttackResult>>();

/**
 * The same run stopped at the attack's point by a harmless refused direct write (to a scratch file, not
 * the audit database): seed 001 makes a rejected perimeter effect terminal for the Natural execution
 * it came from, so this is what the real run produces when the attack is refused there.
 */
export async function stoppedBaseline(place: Place, options: AttackOptions = {}): Promise<AttackResult> {
  const key = `${place}:${JSON.stringify(options.policy ?? null)}:${options.operatorLedger === true}:${options.literalCapability === true}`;
  if (!stoppedBaselines.has(key)) stoppedBaselines.set(key, runCase(place, STOPPING_BODY, options));
  return stoppedBaselines.get(key)!;
}

const STOPPING_BODY = `process.getBuiltinModule('node:fs').writeFileSync(probe.scratchPath, 'x'); return 'stopped';`;

/**
 * The attack was refused or inert: the run's governance projection (entry, executions, capability
 * calls, dispatch nodes, run end) and the audit database are exactly the baseline's, the egress
 * body ran once with the real request, the attack did not report a breach, and (when given) a trace
 * anomaly of that kind names the attempt.
 */
export function expectContained(result: AttackResult & { baseline: AttackResult }, anomaly: string | undefined, expectFn: typeof import('vitest').expect): void {
  expectFn(result.outcome, 'attack outcome').not.toMatch(/^BREACH/);
  expectFn(result.baseline.escaped).toEqual([]);
  expectFn(result.projection, 'ledger governance projection').toEqual(result.baseline.projection);
  expectFn(result.auditRows, 'SQLite audit rows').toEqual(result.baseline.auditRows);
  expectFn(result.auditSchema, 'SQLite audit tables').toEqual(result.baseline.auditSchema);
  expectFn(result.egressCalls).toEqual([{ target: 'real' }]);
  expectFn(result.runOutcome).toBe(result.baseline.runOutcome);
  expectFn(result.badTerminals, 'subjects without exactly one terminal event').toEqual([]);
  if (anomaly === undefined) return;
  // An earlier refusal (a stricter dispatch validation or expression rule) stops the attempt before the
  // seam this case targets; it must still have left evidence.
  const refusedEarlier = /^(refused-at-dispatch|not-reported \(rejected)/.test(result.outcome);
  if (refusedEarlier && !result.anomalies.includes(anomaly)) {
    expectFn(result.anomalies.length, `anomalies (outcome: ${result.outcome})`).toBeGreaterThan(0);
    return;
  }
  if (!result.anomalies.includes(anomaly)) {
    const tier = earlierTier(result.outcome, result.anomalies);
    if (tier !== undefined) {
      expectFn(result.anomalies, `anomalies (outcome: ${result.outcome})`).toContain(tier);
      // The evidence is the recorded anomaly; the refusal itself stays out of the event loop.
      expectFn(result.escaped, 'late refusals thrown to the event loop').toEqual([]);
      return;
    }
  }
  expectFn(result.anomalies, `anomalies (outcome: ${result.outcome})`).toContain(anomaly);
  expectFn(result.escaped, 'late refusals thrown to the event loop').toEqual([]);
}

/**
 * A stricter tier that refuses before the seam a case targets, identified by its own anomaly:
 * - the run-time raw-dynamic tier (issue 13) refuses e.g. `process.getBuiltinModule('async_hooks')`, so
 *   the attack body itself throws RawDynamicExecutionRefusedError and records `raw_dynamic_execution`;
 * - functions a model expression defines run only while its Natural execution is live, so a timer
 *   callback it left behind is refused (`expression_code_outside_execution`, in the Session's late
 *   record) before its body can reach the kept ledger view or dispatcher; the refusal stays out of the
 *   event loop;
 * - model code may not set `Error.prepareStackTrace` (recorded as a replaced built-in), so an attack that
 *   needs its own stack formatter meets a plain string stack and throws before the seam it targets;
 * - model code may not call the dispatcher itself (`dispatch_from_model_code`), so an attack that needs a
 *   generated export of its own gets none from a model expression or generated code.
 */
function earlierTier(outcome: string, anomalies: readonly string[]): string | undefined {
  if (outcome.startsWith('threw:RawDynamicExecutionRefusedError') && anomalies.includes('raw_dynamic_execution')) return 'raw_dynamic_execution';
  if (outcome.startsWith('threw:TypeError') && anomalies.includes('builtin_modified')) return 'builtin_modified';
  if (outcome.startsWith('threw:DispatchRejectedError') && anomalies.includes('dispatch_from_model_code')) return 'dispatch_from_model_code';
  if (anomalies.includes('expression_code_outside_execution')) return 'expression_code_outside_execution';
  return undefined;
}

/**
 * The attack was refused at a seam whose refusal the seeds make terminal ("rejected perimeter effects
 * ... remain terminal"): the Natural execution it came from ended `aborted` with `perimeter_refused`,
 * the named anomaly is parented to that execution, and everything else the run recorded (governance
 * projection, execution and operation records, audit database, egress calls, the caller's outcome) is
 * exactly what the same run stopped at that point by a harmless refused write produced. Nothing breached.
 */
export function expectTerminalContained(result: AttackResult & { baseline: AttackResult }, stopped: AttackResult, anomaly: string, expectFn: typeof import('vitest').expect): void {
  expectFn(result.outcome, 'attack outcome').not.toMatch(/^BREACH/);
  // The stopped baseline really is a terminal stop, distinct from the completed baseline.
  expectFn(stopped.runOutcome).toBe('threw:NaturalExecutionError');
  expectFn(stopped.projection).not.toEqual(result.baseline.projection);
  expectFn(result.projection, 'ledger governance projection').toEqual(stopped.projection);
  expectFn(withoutAnomalies(result.events), 'ledger records other than anomalies').toEqual(withoutAnomalies(stopped.events));
  expectFn(result.auditRows, 'SQLite audit rows').toEqual(stopped.auditRows);
  expectFn(result.auditSchema, 'SQLite audit tables').toEqual(stopped.auditSchema);
  expectFn(result.egressCalls).toEqual([]);
  expectFn(result.runOutcome).toBe(stopped.runOutcome);
  expectFn(result.badTerminals, 'subjects without exactly one terminal event').toEqual([]);
  const ended = result.events.filter((e) => e.kind === 'execution.end');
  expectFn(ended.map((e) => `${e.status}:${String((e.data as { failure?: unknown }).failure)}`)).toEqual(['failed:perimeter_refused']);
  const named = result.events.filter((e) => e.kind === 'trace.anomaly' && e.status === anomaly);
  expectFn(named.length, `anomalies (outcome: ${result.outcome})`).toBeGreaterThan(0);
  expectFn(named[0]!.parentId, 'the anomaly names the execution that ended').toBe(ended[0]!.subjectId);
  // The first refusal ends the step before anything after it is recorded for the execution.
  expectFn(result.events.indexOf(named[0]!)).toBeLessThan(result.events.indexOf(ended[0]!));
}

/** Kind and status of every event but trace anomalies (an attack may try the refused seam more than once). */
function withoutAnomalies(events: readonly nh.LedgerEvent[]): string[] {
  return events.filter((e) => e.kind !== 'trace.anomaly').map((e) => `${e.kind}:${e.status ?? ''}`);
}

async function runCase(place: Place, body: string, options: AttackOptions): Promise<AttackResult> {
  const dir = mkdtempSync(join(tmpdir(), 'nh-integrity-'));
  const auditPath = join(dir, 'audit.db');
  const store = new nh.SqlitePerimeterAuditStore({ path: auditPath });
  const egressCalls: unknown[] = [];
  const sendSpec = {
    name: 'send_report',
    description: 'Posts a report (egress)',
    footprint: ['egress'] as nh.PerimeterClass[],
    request: z.object({ target: z.string() }),
    signature: '(send_reportRequest) => unknown',
    run: (args: { target: string }) => {
      egressCalls.push(args);
      return { sent: args.target };
    },
  };
  const send: nh.Capability = options.literalCapability ? (sendSpec as nh.Capability) : nh.defineCapability(sendSpec);
  const lookup = nh.defineCapability({ name: 'lookup', description: 'Reads a value', request: z.object({ target: z.string() }), run: (a) => ({ found: a.target }) });
  const policy = options.policy ? [...options.policy] : undefined;
  const platformPolicy: nh.PerimeterClass[] = ['egress'];
  const grant = { capabilities: [send, lookup] as nh.Capability[], references: {} as Record<string, unknown> };
  const oversight = { inspectOperation: (r: nh.OperationRequest) => (r.expression === 'forbidden()' ? nh.rejectOperation('forbidden') : nh.accept()) };
  // What an attacker in a notebook can reach besides `nh`: the objects the operator built the Session from.
  const probe: Record<string, unknown> = { auditPath, auditStore: store, scratchPath: join(dir, 'scratch.txt'), grant, platformPolicy, policy, oversight, ...(options.probe ?? {}) };
  grant.references = { nh, probe };
  const expression = wrap(body);
  const model = new ScriptedModel((_messages, info) => {
    const attackTurn = place === 'expression' ? 1 : 0;
    if (info.requestNumber === attackTurn) return { toolCalls: [toolCall('nh_evaluate', { expression })] };
    if (info.requestNumber === attackTurn + 1) return { toolCalls: [toolCall('send_report', { target: 'real' })] };
    return { toolCalls: [finish()] };
  });
  const executor = new nh.AgentExecutor({ model, maxRequestsPerStep: 10 });
  probe.executor = executor;
  const ledgerPath = join(dir, 'ledger.db');
  const ledgerStore = options.operatorLedger ? new nh.SqliteLedgerStore(ledgerPath) : undefined;
  const ledger = ledgerStore ? new nh.Ledger({ store: ledgerStore, window: 4 }) : undefined;
  if (ledger) Object.assign(probe, { ledger, ledgerStore, ledgerPath });
  const session = new nh.Session({
    ...(ledger ? { ledger } : {}),
    executor,
    platformPolicy,
    perimeterAuditStore: store,
    grant,
    oversight,
    ...(policy ? { policy } : {}),
  });
  probe.session = session;
  if (options.sessionHelper) {
    probe.helper = session.materialized(session.submit('function helper(a, b) { return a + b }'), { helper: (a: number, b: number) => a + b }).helper;
  }
  const attackFn = new Function('nh', 'probe', `return ${wrap(body)};`) as (n: typeof nh, p: Record<string, unknown>) => Promise<string>;
  const source = `export function attack() { return ${wrap(body)}; }`;
  const realWork = async () => {
    await nh.step({ program: 'execute\nSend the report.' });
  };
  const runAttack = async (): Promise<void> => {
    if (place === 'session-function') await attackFn(nh, probe);
    else if (place === 'generated') {
      const dispatched = await nh.currentDispatcher().dispatch({
        language: 'javascript',
        intent: 'define-and-invoke',
        entry: 'attack',
        source,
        dependencies: [
          { name: 'nh', kind: 'reference', type: 'object' },
          { name: 'probe', kind: 'reference', type: 'object' },
        ],
      });
      await (dispatched.invocation!.value as Promise<unknown>);
    }
  };
  // A proposal refused before it ran (a stricter validation rule) is a contained attempt too.
  const runAttackContained = async (): Promise<void> => {
    try {
      await runAttack();
    } catch (error) {
      probe.outcome = `refused-at-dispatch:${(error as Error).name}`;
    }
  };
  const bodyFn = async function composition(): Promise<string> {
    await runAttackContained();
    await realWork();
    return 'done';
  };
  // A refused late callback must not reach the event loop (it would end a plain library process): catch
  // any refusal of model-made code that does for the duration of the case, so the case names it, and
  // hand anything else to the runner's listeners.
  const escaped: string[] = [];
  const saved = { exception: process.listeners('uncaughtException'), rejection: process.listeners('unhandledRejection') };
  const isRefusal = (e: unknown) => e instanceof nh.ExpressionCodeOutsideExecutionError || e instanceof GeneratedCodeOutsideDispatchError || e instanceof nh.RunTerminatedError;
  const onException = (error: Error, origin: NodeJS.UncaughtExceptionOrigin) => {
    if (isRefusal(error)) escaped.push(error.name);
    else for (const l of saved.exception) l(error, origin);
  };
  const onRejection = (reason: unknown, promise: Promise<unknown>) => {
    if (isRefusal(reason)) escaped.push((reason as Error).name);
    else for (const l of saved.rejection) l(reason, promise);
  };
  process.removeAllListeners('uncaughtException').removeAllListeners('unhandledRejection');
  process.on('uncaughtException', onException).on('unhandledRejection', onRejection);
  try {
    return await runSession();
  } finally {
    process.off('uncaughtException', onException).off('unhandledRejection', onRejection);
    for (const l of saved.exception) process.on('uncaughtException', l);
    for (const l of saved.rejection) process.on('unhandledRejection', l);
  }

  async function runSession(): Promise<AttackResult> {
    const { composition } = session.materialized(session.submit('async function composition() {}'), { composition: bodyFn });
    let runOutcome: string;
    try {
      runOutcome = `returned:${String(await composition!())}`;
    } catch (error) {
      runOutcome = `threw:${(error as Error).name}`;
    }
    // The host fires an event an attack may have left a listener on, from the event loop (no caller to throw to).
    setTimeout(() => (process.emit as (event: string) => boolean)(LATE_EVENT), 5);
    // Timers an attack left behind fire after the run ended; their refusals land in the Session's record.
    await new Promise((resolve) => setTimeout(resolve, 30));
    process.removeAllListeners(LATE_EVENT);
    const reported = typeof probe.outcome === 'string' ? probe.outcome : `not-reported (${expressionFailure(session)})`;
    // Work an attack scheduled for later reports through probe.late.
    const outcome = probe.late === 'BREACH' ? 'BREACH (later)' : reported;
    const runId = session.ledger.select({ kind: 'run.entry' }).at(-1)!.runId;
    const events = session.ledger.select({ runId });
    const anomalies = [
      ...events.filter((e) => e.kind === 'trace.anomaly').map((e) => String(e.status)),
      ...((session as { anomalies?: readonly { anomalyKind: string }[] }).anomalies ?? []).map((a) => a.anomalyKind),
    ];
    // Governance facts: what was admitted, which capabilities ran with what, how the run ended.
    const projection = events
      .filter((e) => GOVERNANCE.has(e.kind))
      .map((e) => `${e.kind}:${e.status ?? ''}:${JSON.stringify(e.kind === 'capability.call' ? (e.data as { arguments?: unknown }).arguments : e.kind === 'run.entry' ? withoutLabel(e.data) : null)}`);
    const terminals = new Map<string, number>();
    for (const e of events) if (e.kind === 'execution.end' || e.kind === 'dispatch.end' || e.kind === 'run.end') terminals.set(e.subjectId, (terminals.get(e.subjectId) ?? 0) + 1);
    for (const e of events) if (e.kind === 'execution.start' || e.kind === 'dispatch.start') terminals.set(e.subjectId, terminals.get(e.subjectId) ?? 0);
    const badTerminals = [...terminals].filter(([, n]) => n !== 1).map(([id]) => id);
    store.close();
    ledgerStore?.close();
    const db = new Database(auditPath, { readonly: true });
    const auditSchema = (db.prepare("SELECT type || ':' || name AS item FROM sqlite_master ORDER BY name").all() as { item: string }[]).map((r) => r.item);
    const auditRows = (db.prepare('SELECT a.capability, a.arguments, c.status FROM perimeter_attempt a LEFT JOIN perimeter_completion c ON c.attempt_id = a.attempt_id ORDER BY a.sequence').all() as Record<string, unknown>[]).map((r) => `${String(r.capability)}:${String(r.arguments)}:${String(r.status)}`);
    db.close();
    return { outcome, session, runId, events, anomalies, projection, auditRows, auditSchema, egressCalls, runOutcome, auditPath, badTerminals, escaped };
  }
}

/** An event on `process` the host fires after each attacked run. */
export const LATE_EVENT = 'nh-attack-late';

const GOVERNANCE: ReadonlySet<string> = new Set(['run.entry', 'capability.call', 'allocation.exhausted', 'run.end']);

function withoutLabel(data: unknown): unknown {
  const { label: _label, ...rest } = data as Record<string, unknown>;
  return rest;
}

/** Why an attack expression reported nothing (its operation was refused or failed). */
function expressionFailure(session: nh.Session): string {
  const op = session.ledger.select({ kind: 'operation' })[0];
  if (!op) return 'no operation';
  const data = op.data as { status?: string; failure?: { errorClass?: string; message?: string } };
  return `${String(data.status)}${data.failure ? `: ${data.failure.errorClass}: ${data.failure.message}` : ''}`;
}

export { nh };
