/**
 * The attacks. Each body is plain JavaScript run from every place it applies to (see support.ts),
 * with `nh` and `probe` in scope; it returns `BREACH…` only if it reached host state it must not.
 * Bodies avoid the textual raw-dynamic rule on purpose: these are attempts that rule does not stop.
 */
import type { AttackOptions, Place } from './support.js';

export interface AttackCase {
  readonly id: string;
  readonly body: string;
  /** The trace anomaly that must name the attempt; none for an attempt that is inert rather than refused. */
  readonly anomaly?: string;
  /** Places the case runs from (default: all three). */
  readonly places?: readonly Place[];
  /**
   * Places where the refusal is terminal under seed 001 ("rejected perimeter effects ... remain
   * terminal"): a refused direct perimeter effect from a model expression ends its Natural execution,
   * so the run stops there instead of finishing like the baseline.
   */
  readonly terminalFrom?: readonly Place[];
  /** How the operator set the Session up (support.ts AttackOptions). */
  readonly options?: AttackOptions;
}

/** After a reach attempt found nothing, the attacker falls back to the public ledger handle. */
const FORGE_RUN_END = `
  const publicLedger = probe.session.ledger;
  const endRunId = publicLedger.select({ kind: 'run.entry' }).at(-1).runId;
  publicLedger.append(endRunId, { kind: 'run.end', subjectId: endRunId, status: 'completed' });
  return 'BREACH: forged run.end through the public ledger';`;

/** Looks through an object graph for anything shaped like host state. */
const HUNT = `
  const found = [];
  const seen = new Set();
  const hostish = (v) => { try { return !!v && typeof v === 'object' && (v instanceof nh.RunHost || v instanceof nh.Ledger || v instanceof nh.SqlitePerimeterAuditStore || v instanceof nh.InMemoryPerimeterAuditStore || (Object.hasOwn(v, 'host') && Object.hasOwn(v, 'authority')) || Object.hasOwn(v, 'rootAuthority')); } catch { return false; } };
  const hunt = (o, depth, path) => {
    if (!o || typeof o !== 'object' || seen.has(o) || depth > 3) return;
    seen.add(o);
    let keys = [];
    try { keys = Reflect.ownKeys(o); } catch { return; }
    for (const k of keys) {
      let v;
      try { v = o[k]; } catch { continue; }
      if (hostish(v)) found.push(path + '.' + String(k));
      hunt(v, depth + 1, path + '.' + String(k));
    }
  };`;

const AH = `const ah = process.getBuiltinModule('node:async_hooks');`;

/** What the host's own clients publish (its provider requests' headers among them). */
export const diagnosticsCases: AttackCase[] = [
  {
    id: 'diagnostics_channel: subscribe a bound built-in to the HTTP client channels and read what the host sends',
    body: `
      const dc = process.getBuiltinModule('node:diagnostics_channel');
      const seen = [];
      for (const name of ['undici:request:create', 'undici:client:sendHeaders', 'http.client.request.start']) dc.subscribe(name, Array.prototype.push.bind(seen));
      return 'BREACH: subscribed to the host client channels';`,
    anomaly: 'raw_dynamic_execution',
    // A SessionFunction body is operator code: what it subscribes to is the operator's own traffic.
    places: ['expression', 'generated'],
  },
  {
    id: "fetch's global dispatcher: swap it for a recorder of bound built-ins that keeps every request the host sends",
    body: `
      const key = Symbol.for('undici.globalDispatcher.1');
      const original = globalThis[key];
      const loot = [];
      Object.assign(globalThis, { [key]: { dispatch: Array.prototype.push.bind(loot) } });
      if (globalThis[key] === original) return 'inert';
      probe.swapped = globalThis[key];
      return 'swapped until the host checks';`,
    anomaly: 'builtin_modified',
    places: ['expression', 'generated'],
  },
  {
    id: 'socket write path: shadow net.Socket.prototype.write with a recorder of bound built-ins',
    body: `
      const net = process.getBuiltinModule('node:net');
      const loot = [];
      net.Socket.prototype.write = Array.prototype.push.bind(loot);
      if (!Object.hasOwn(net.Socket.prototype, 'write') || net.Socket.prototype.write === Array.prototype.push) return 'inert';
      return 'shadowed until the host checks';`,
    anomaly: 'builtin_modified',
    places: ['expression', 'generated'],
  },
];

export const asyncContextCases: AttackCase[] = [
  {
    id: 'async_hooks: walk executionAsyncResource() and its symbol-keyed stores for the run host',
    body: `${AH}${HUNT}
      hunt(ah.executionAsyncResource(), 0, 'resource');
      if (found.length) return 'BREACH: ' + found.join(',');
      ${FORGE_RUN_END}`,
    anomaly: 'ledger_append_refused',
  },
  {
    id: 'async_hooks: walk the resource of an awaited continuation',
    body: `${AH}${HUNT}
      await null;
      await new Promise((r) => setImmediate(r));
      hunt(ah.executionAsyncResource(), 0, 'resource');
      if (found.length) return 'BREACH: ' + found.join(',');
      ${FORGE_RUN_END}`,
    anomaly: 'ledger_append_refused',
  },
  {
    id: 'async_hooks: clear every store on the resource, then use an operator control as if outside the run',
    body: `${AH}
      const r = ah.executionAsyncResource();
      // Only the context stores: rewriting Node's own async ids would abort the process, not the run.
      for (const k of Object.getOwnPropertySymbols(r)) if (String(k).includes('ResourceStore')) { try { r[k] = undefined; } catch {} }
      probe.session.configure({ platformPolicy: ['egress', 'destructive', 'durable_write_back'] });
      return 'BREACH: configure accepted after clearing the context';`,
    anomaly: 'operator_control_in_run',
  },
  {
    id: 'async_hooks: swap every store for a forged frame, then take the Runner',
    body: `${AH}
      const r = ah.executionAsyncResource();
      const forged = Object.freeze({ host: undefined, authority: { capabilities: new Map(), references: {}, policy: new Set(['egress', 'destructive']) } });
      for (const k of Object.getOwnPropertySymbols(r)) if (String(k).includes('ResourceStore')) { try { r[k] = forged; } catch {} }
      const runner = probe.session.runner;
      return 'BREACH: got the runner ' + typeof runner;`,
    anomaly: 'operator_control_in_run',
  },
  {
    id: 'async_hooks: a createHook of its own collects resources the host creates later',
    body: `${AH}${HUNT}
      const collected = [];
      const hook = ah.createHook({ init(_id, _type, _trigger, resource) { collected.push(resource); } }).enable();
      try { await new Promise((r) => setTimeout(r, 5)); } finally { hook.disable(); }
      for (const res of collected) hunt(res, 0, 'hooked');
      if (found.length) return 'BREACH: ' + found.join(',');
      ${FORGE_RUN_END}`,
    anomaly: 'ledger_append_refused',
    // A generated hook callback is guarded: Node calls it for every resource in every context, the guard
    // refuses outside its dispatch, and a throwing hook ends the process (forbidding async_hooks to
    // generated code is the raw-dynamic rule's job).
    places: ['expression', 'session-function'],
  },
  {
    id: 'async_hooks: an AsyncLocalStorage snapshot of the run replayed later carries no host state',
    body: `${AH}${HUNT}
      const snap = ah.AsyncLocalStorage.snapshot();
      const inner = snap(() => ah.executionAsyncResource());
      hunt(inner, 0, 'snapshot');
      if (found.length) return 'BREACH: ' + found.join(',');
      ${FORGE_RUN_END}`,
    anomaly: 'ledger_append_refused',
  },
];

export const reachCases: AttackCase[] = [
  {
    id: 'globalThis: search every global for a run host, ledger or authority',
    body: `${HUNT}
      for (const k of Reflect.ownKeys(globalThis)) { let v; try { v = globalThis[String(k)]; } catch { continue; } if (hostish(v)) found.push(String(k)); }
      if (found.length) return 'BREACH: ' + found.join(',');
      ${FORGE_RUN_END}`,
    anomaly: 'ledger_append_refused',
  },
  {
    id: 'symbols: registered nighthawk symbols on the library and the Session lead to no writer',
    body: `${HUNT}
      for (const target of [nh, probe.session, probe.session.ledger]) hunt(target, 0, 'target');
      const marks = Object.getOwnPropertySymbols(probe.session).concat(Object.getOwnPropertySymbols(probe.session.ledger));
      if (found.length || marks.length) return 'BREACH: ' + found.concat(marks.map(String)).join(',');
      ${FORGE_RUN_END}`,
    anomaly: 'ledger_append_refused',
  },
  {
    id: 'prototypes: replace the view prototype append with the real writer',
    body: `
      const proto = Object.getPrototypeOf(probe.session.ledger);
      try { proto.append = function () { return 'patched'; }; } catch {}
      try { Object.defineProperty(probe.session.ledger, 'append', { value: () => 'patched' }); } catch {}
      ${FORGE_RUN_END}`,
    anomaly: 'ledger_append_refused',
  },
  {
    id: 'prototypes: Set.prototype.add on the authority policy (via a Runner getter)',
    body: `
      const runner = probe.session.runner;
      Set.prototype.add.call(runner.platformPolicy, 'destructive');
      return 'BREACH: reached the policy';`,
    anomaly: 'operator_control_in_run',
  },
  {
    id: 'getters: Session.runner.run with a wider grant from inside a run',
    body: `
      await probe.session.runner.run(async () => 'nested', { grant: { capabilities: probe.grant.capabilities }, policy: ['egress', 'destructive'] });
      return 'BREACH: nested run admitted';`,
    anomaly: 'operator_control_in_run',
  },
  {
    id: 'getters: a Runner built from inside the run refuses to start a wider one',
    body: `
      const runner = new nh.Runner({ executor: { runStep: async () => ({ outcome: { kind: 'pass' }, bindings: {} }) }, platformPolicy: ['egress', 'destructive'], acceptsAggregateExecutorAccounting: true, perimeterAuditStore: new nh.InMemoryPerimeterAuditStore() });
      await runner.run(async () => 'nested', { grant: { capabilities: probe.grant.capabilities } });
      return 'BREACH: nested run admitted';`,
    anomaly: 'nested_run_refused',
  },
  {
    id: 'getters: Runner.start of a new Runner with the Session grant',
    body: `
      const runner = new nh.Runner({ executor: { runStep: async () => ({}) }, acceptsAggregateExecutorAccounting: true });
      runner.start(async () => 'nested');
      return 'BREACH: nested run started';`,
    anomaly: 'nested_run_refused',
  },
  {
    id: 'getters: ledger events and their data are frozen snapshots',
    body: `
      const events = probe.session.ledger.events();
      try { events.push({ kind: 'run.end' }); } catch {}
      try { events[0].status = 'forged'; } catch {}
      try { events[0].data.grant.capabilities.push({ name: 'evil' }); } catch {}
      const again = probe.session.ledger.events();
      if (again[0].status === 'forged' || JSON.stringify(again[0].data).includes('evil')) return 'BREACH: mutated a recorded event';
      ${FORGE_RUN_END}`,
    anomaly: 'ledger_append_refused',
  },
  {
    id: 'getters: select() results cannot be spliced or deleted',
    body: `
      const view = probe.session.ledger;
      const sel = view.select({});
      try { Array.prototype.splice.call(sel, 0, sel.length); } catch {}
      try { delete sel[0]; } catch {}
      if (view.select({}).length === 0) return 'BREACH: deleted events';
      ${FORGE_RUN_END}`,
    anomaly: 'ledger_append_refused',
  },
  {
    id: 'closures: subscribe a ledger listener that forges run.end when the real one arrives',
    body: `
      const view = probe.session.ledger;
      const runId = view.select({ kind: 'run.entry' }).at(-1).runId;
      view.subscribe((e) => { if (e.kind === 'run.end') { try { view.append(runId, { kind: 'run.end', subjectId: runId + '_2', status: 'forged' }); probe.late = 'BREACH'; } catch (err) { probe.late = err.name; } } });
      return 'BREACH: listener installed from inside the run';`,
    anomaly: 'operator_control_in_run',
  },
  {
    id: 'error objects: walk the cause chain and own properties of host errors',
    body: `${HUNT}
      const errors = [];
      try { probe.session.ledger.append('x', { kind: 'run.end', subjectId: 'x' }); } catch (e) { errors.push(e); }
      try { probe.session.configure({}); } catch (e) { errors.push(e); }
      for (const e of errors) { hunt(e, 0, 'error'); for (let c = e; c; c = c.cause) hunt(c, 0, 'cause'); }
      if (found.length) return 'BREACH: ' + found.join(',');
      ${FORGE_RUN_END}`,
    anomaly: 'ledger_append_refused',
  },
  {
    id: 'error objects: Error.prepareStackTrace exposes this/function of the host frames that called the attack',
    body: `${HUNT}
      const original = Error.prepareStackTrace;
      const frames = [];
      Error.prepareStackTrace = (_e, callSites) => callSites;
      try { const sites = new Error('probe').stack; for (const s of sites) { frames.push(s.getThis()); frames.push(s.getFunction()); } } finally { Error.prepareStackTrace = original; }
      for (const f of frames) { if (hostish(f)) found.push('frame'); hunt(f, 0, 'frame'); }
      if (found.length) return 'BREACH: ' + found.join(',');
      ${FORGE_RUN_END}`,
    anomaly: 'ledger_append_refused',
  },
];

export const ledgerCases: AttackCase[] = [
  {
    id: 'ledger: append a forged run.end through Session.ledger',
    body: FORGE_RUN_END,
    anomaly: 'ledger_append_refused',
  },
  {
    id: 'ledger: append a forged capability.call to cover an effect',
    body: `
      const view = probe.session.ledger;
      const runId = view.select({ kind: 'run.entry' }).at(-1).runId;
      view.append(runId, { kind: 'capability.call', subjectId: 'send_report', status: 'completed', data: { arguments: { target: 'covered' } } });
      return 'BREACH: forged capability record';`,
    anomaly: 'ledger_append_refused',
  },
  {
    id: 'ledger: Ledger.prototype.append applied to the view',
    body: `
      const view = probe.session.ledger;
      const runId = view.select({ kind: 'run.entry' }).at(-1).runId;
      try { nh.Ledger.prototype.append.call(view, runId, { kind: 'run.end', subjectId: runId, status: 'completed' }); return 'BREACH: appended through the prototype'; } catch {}
      ${FORGE_RUN_END}`,
    anomaly: 'ledger_append_refused',
  },
  {
    id: 'ledger: keep the view and append after the run ended (timer)',
    body: `
      const view = probe.session.ledger;
      const runId = view.select({ kind: 'run.entry' }).at(-1).runId;
      setTimeout(() => { try { view.append(runId, { kind: 'trace.anomaly', subjectId: runId, status: 'forged' }); probe.late = 'BREACH'; } catch (e) { probe.late = e.name; } }, 5);
      return 'timer set';`,
    anomaly: 'ledger_append_refused',
    places: ['expression', 'session-function'],
  },
  {
    id: 'ledger: stash the view in globalThis and reopen the finished run from a later turn',
    body: `
      globalThis.__stash_view = probe.session.ledger;
      setTimeout(() => { const v = globalThis.__stash_view; delete globalThis.__stash_view; const id = v.select({ kind: 'run.entry' }).at(-1).runId; try { v.append(id, { kind: 'run.end', subjectId: id, status: 'completed' }); probe.late = 'BREACH'; } catch (e) { probe.late = e.name; } }, 5);
      return 'stashed';`,
    anomaly: 'ledger_append_refused',
    places: ['expression', 'session-function'],
  },
  {
    id: 'ledger: delete or redefine the view methods',
    body: `
      const view = probe.session.ledger;
      try { delete view.select; } catch {}
      try { Object.defineProperty(view, 'select', { value: () => [] }); } catch {}
      try { Object.setPrototypeOf(view, { append() { return 'mine'; } }); } catch {}
      if (view.select({}).length === 0) return 'BREACH: replaced select';
      ${FORGE_RUN_END}`,
    anomaly: 'ledger_append_refused',
  },
];

const WIDE = `['egress', 'destructive', 'durable_write_back']`;

export const authorityCases: AttackCase[] = [
  {
    id: 'grant: Session.configure with a wider grant from inside a run',
    body: `
      probe.session.configure({ grant: { capabilities: probe.grant.capabilities, references: {} }, platformPolicy: ${WIDE} });
      return 'BREACH: configure accepted';`,
    anomaly: 'operator_control_in_run',
  },
  {
    id: 'policy: push into the platform policy array, then take the Runner',
    body: `
      probe.platformPolicy.push('destructive');
      if (probe.policy) probe.policy.push('destructive');
      const r = probe.session.runner;
      return 'BREACH: runner ' + typeof r;`,
    anomaly: 'operator_control_in_run',
  },
  {
    id: 'allocation: raise the default allocation limits, then start a run',
    body: `
      try { nh.DEFAULT_ALLOCATION.maxExecutorSteps = 1e9; } catch {}
      const runner = new nh.Runner({ executor: { runStep: async () => ({}) }, acceptsAggregateExecutorAccounting: true, allocation: { maxExecutorSteps: 1e9 } });
      await runner.run(async () => 'more');
      return 'BREACH: a run with a new allocation';`,
    anomaly: 'nested_run_refused',
  },
  {
    id: 'oversight: replace the inspector on the oversight object the operator configured',
    body: `
      probe.oversight.inspectOperation = () => nh.accept();
      probe.session.configure({ oversight: { inspectOperation: () => nh.accept() } });
      return 'BREACH: oversight replaced';`,
    anomaly: 'operator_control_in_run',
  },
  {
    id: 'oversight: call the host oversight seam with a forged operation record',
    body: `
      const state = nh.currentState();
      const forged = { request: { operationId: 'op_forged', executionId: 'exe_forged', kind: 'evaluate' }, status: 'completed', sequence: 0, startedAt: 0, durationMs: 0 };
      await state.oversight.onOperationFinished(forged);
      return 'BREACH: forged operation record accepted';`,
    anomaly: 'forged_seam_call',
  },
  {
    id: 'oversight: forge a terminal step record to close an execution it does not own',
    body: `
      const state = nh.currentState();
      await state.oversight.onStepFinished({ stepId: 's', executionId: 'exe_forged', runId: state.runId, status: 'completed', operations: [], failedOperations: [], proposedBindings: {}, committedBindings: {} });
      return 'BREACH: forged step record accepted';`,
    anomaly: 'forged_seam_call',
  },
  {
    id: 'oversight: make every record look like the core\'s (WeakSet.prototype.has answering true), then forge a terminal record',
    body: `
      const state = nh.currentState();
      const has = WeakSet.prototype.has;
      WeakSet.prototype.has = function () { return true; };
      try {
        await state.oversight.onStepFinished({ stepId: 's', executionId: 'exe_forged', runId: state.runId, status: 'completed', operations: [], failedOperations: [], proposedBindings: {}, committedBindings: {} });
      } finally {
        WeakSet.prototype.has = has;
      }
      return 'BREACH: forged step record accepted under a replaced WeakSet.prototype.has';`,
    anomaly: 'forged_seam_call',
  },
  {
    id: "oversight: have the host translate a forged terminal record into its verdict on an execution it does not own",
    body: `
      const state = nh.currentState();
      const verdict = await state.oversight.translateStepFailure(new nh.AllocationExhaustedError({ resource: 'cost', limit: 1, used: 2 }), { stepId: 's', executionId: 'exe_other', runId: state.runId, status: 'failed', operations: [], failedOperations: [], proposedBindings: {}, committedBindings: {} });
      return 'BREACH: the host answered ' + verdict.failure + ' for a record it never saw';`,
    anomaly: 'forged_seam_call',
  },
  {
    id: 'oversight: run a forged step context without oversight through the host executor',
    body: `
      const state = nh.currentState();
      const ctx = { stepId: 'forged', executionId: 'exe_forged_ctx', oversight: undefined, program: { text: 'x' }, inputBindings: {}, parent: undefined };
      await state.executor.runStep({ stepContext: ctx });
      return 'BREACH: forged step ran';`,
    anomaly: 'foreign_step_context',
  },
  {
    id: 'oversight: clear the step context oversight (assignment, defineProperty, prototype swap)',
    body: `
      const ctx = nh.currentStepContext();
      if (ctx) {
        try { ctx.oversight = undefined; } catch {}
        try { Object.defineProperty(ctx, 'oversight', { value: undefined }); } catch {}
        try { Object.setPrototypeOf(ctx, {}); } catch {}
        if (ctx.oversight === undefined) return 'BREACH: oversight cleared';
      }
      ${FORGE_RUN_END}`,
    anomaly: 'ledger_append_refused',
  },
  {
    // The AgentExecutor receives its admission privately: the step's scope holds none to find.
    id: 'gateway: use the executor-step admission to run a direct write as host infrastructure',
    body: `
      const fs = process.getBuiltinModule('node:fs');
      const admission = nh.currentState().requestAdmission;
      if (!admission || !admission.request) { ${FORGE_RUN_END} }
      await admission.request(async () => fs.truncateSync(probe.auditPath, 0));
      return 'BREACH: wrote under the model-request allowance';`,
    anomaly: 'ledger_append_refused',
  },
  {
    id: 'gateway: currentExecutorStepAdmission().request from an expression',
    body: `
      const fs = process.getBuiltinModule('node:fs');
      await nh.currentExecutorStepAdmission().request(async () => fs.writeFileSync(probe.auditPath + '-wal', ''));
      return 'BREACH: wrote under the model-request allowance';`,
    anomaly: 'operator_control_in_run',
    places: ['expression'],
  },
  {
    id: 'gateway: forge an allowance by wrapping a write in withoutAllowance/withAllowance names',
    body: `
      const fs = process.getBuiltinModule('node:fs');
      if (typeof nh.withAllowance === 'function') { await nh.withAllowance('forged', () => fs.truncateSync(probe.auditPath, 0)); return 'BREACH: allowance forged'; }
      await nh.withoutAllowance(() => fs.truncateSync(probe.auditPath, 0));
      return 'BREACH: direct write';`,
    anomaly: 'unmediated_perimeter_effect',
    terminalFrom: ['expression'],
  },
];

export const auditCases: AttackCase[] = [
  {
    id: 'audit store: truncate the SQLite audit database directly',
    body: `
      const fs = process.getBuiltinModule('node:fs');
      fs.truncateSync(probe.auditPath, 0);
      return 'BREACH: truncated';`,
    anomaly: 'unmediated_perimeter_effect',
    terminalFrom: ['expression'],
  },
  {
    id: 'audit store: truncate the -wal and -shm files',
    body: `
      const fs = process.getBuiltinModule('node:fs');
      let refused = 0;
      for (const f of [probe.auditPath + '-wal', probe.auditPath + '-shm']) { try { fs.truncateSync(f, 0); } catch (e) { refused++; } }
      return refused === 2 ? 'refused' : 'BREACH: truncated ' + (2 - refused);`,
    anomaly: 'unmediated_perimeter_effect',
    terminalFrom: ['expression'],
  },
  {
    id: 'audit store: unlink the audit database',
    body: `
      const fs = process.getBuiltinModule('node:fs');
      await fs.promises.unlink(probe.auditPath);
      return 'BREACH: unlinked';`,
    anomaly: 'unmediated_perimeter_effect',
    terminalFrom: ['expression'],
  },
  {
    id: 'audit store: open a second store on the same file and forge attempt records',
    body: `
      const store = new nh.SqlitePerimeterAuditStore({ path: probe.auditPath });
      store.recordAttempt(nh.createPerimeterAttempt({ runId: 'run_forged', capability: 'send_report', footprint: ['egress'], arguments: { target: 'forged' } }));
      return 'BREACH: forged audit row';`,
    anomaly: 'audit_store_in_run',
  },
  {
    id: 'audit store: hunt the live store handle through the Session and library objects',
    body: `${HUNT}
      const stores = [];
      const look = (o, d) => { if (!o || typeof o !== 'object' || d > 3) return; for (const k of Reflect.ownKeys(o)) { let v; try { v = o[k]; } catch { continue; } if (v instanceof nh.SqlitePerimeterAuditStore) stores.push(v); look(v, d + 1); } };
      look(probe.session, 0); look(probe.session.ledger, 0); look(nh.currentState(), 0);
      if (stores.length) { stores[0].close(); return 'BREACH: closed the audit store'; }
      const store = new nh.InMemoryPerimeterAuditStore();
      store.recordAttempt(nh.createPerimeterAttempt({ runId: 'run_forged', capability: 'send_report', footprint: ['egress'], arguments: { target: 'x' } }));
      return 'BREACH: wrote an audit record from the interior';`,
    anomaly: 'audit_store_in_run',
  },
  {
    id: 'audit and ledger stores: open one at a path in folders that do not exist, so the store makes them',
    body: `
      const folder = probe.scratchPath + '-folders';
      try { new nh.SqlitePerimeterAuditStore({ path: folder + '/audit/audit.db' }); } catch {}
      try { new nh.SqliteLedgerStore(folder + '/ledger/ledger.db'); } catch {}
      return process.getBuiltinModule('node:fs').existsSync(folder) ? 'BREACH: a store made ' + folder : 'refused';`,
    anomaly: 'audit_store_in_run',
  },
];

/**
 * The operator built the Session on its own Ledger over a SQLite ledger store, in variables a SessionFunction
 * body can reach (and a model or generated code reaches when they are handed on): the real Ledger and store
 * are host-written only while a run's interior executes, and a new store may not be opened there at all.
 */
const FORGED_EVENT = `const runId = probe.ledger.select({ kind: 'run.entry' }).at(-1).runId;
  const forged = (kind, subjectId) => ({ sequence: 999, eventId: 'ev_forged_' + kind, runId, kind, subjectId, status: 'completed', at: Date.now(), data: null });`;

export const operatorLedgerCases: AttackCase[] = [
  {
    id: 'the operator-held Ledger: append a forged capability call and run end',
    body: `
      const runId = probe.ledger.select({ kind: 'run.entry' }).at(-1).runId;
      const done = [];
      for (const [kind, subjectId] of [['capability.call', 'forged'], ['run.end', runId]]) {
        try { probe.ledger.append(runId, { kind, subjectId, status: 'completed' }); done.push(kind); } catch {}
      }
      return done.length ? 'BREACH: appended ' + done.join(', ') : 'refused';`,
    anomaly: 'ledger_append_refused',
    options: { operatorLedger: true },
  },
  {
    id: 'the operator-held SqliteLedgerStore: append and write a forged run end, then close it',
    body: `${FORGED_EVENT}
      const store = probe.ledgerStore;
      const done = [];
      const tries = { append: () => store.append(probe.ledger.ledgerId, forged('run.end', runId)), write: () => store.write(forged('capability.call', 'forged')), attach: () => store.attach(nh.Ledger.fromEvents([forged('run.end', runId)])), close: () => store.close() };
      for (const [name, fn] of Object.entries(tries)) { try { fn(); done.push(name); } catch {} }
      return done.length ? 'BREACH: ' + done.join(', ') : 'refused';`,
    anomaly: 'ledger_store_in_run',
    options: { operatorLedger: true },
  },
  {
    id: 'a new SqliteLedgerStore on the ledger file or the audit database, to forge a run end or add tables',
    body: `${FORGED_EVENT}
      const opened = [];
      for (const path of [probe.ledgerPath, probe.auditPath, probe.scratchPath + '.db']) {
        try { const s = new nh.SqliteLedgerStore(path); s.append(probe.ledger.ledgerId, forged('run.end', runId)); s.close(); opened.push(path); } catch {}
      }
      return opened.length ? 'BREACH: opened ' + opened.join(', ') : 'refused';`,
    anomaly: 'ledger_store_in_run',
    options: { operatorLedger: true },
  },
];

export const reopenCases: AttackCase[] = [
  {
    id: 'reopen: keep the dispatcher and dispatch after the run ended',
    body: `
      const dispatcher = nh.currentDispatcher();
      setTimeout(async () => { try { await dispatcher.dispatch({ language: 'javascript', intent: 'define', source: 'export const x = 1;' }); probe.late = 'BREACH'; } catch (e) { probe.late = e.name; } }, 5);
      return 'kept';`,
    anomaly: 'dispatch_after_run_closed',
    places: ['expression', 'session-function'],
  },
  {
    id: 'reopen: keep a generated export and call it after the run ended',
    body: `
      const out = await nh.currentDispatcher().dispatch({ language: 'javascript', intent: 'define', source: 'export function add(a, b) { return a + b; }' });
      const add = out.exports.add;
      setTimeout(() => { try { add(1, 2); probe.late = 'BREACH'; } catch (e) { probe.late = e.name; } }, 5);
      return 'kept';`,
    anomaly: 'generated_export_outside_run',
    places: ['expression', 'session-function'],
  },
  {
    // Inside the run a SessionFunction written synchronous answers synchronously. Left as a timer's callback, it
    // is called in the ended run's context: refused where it is called (it neither joins the ended run nor
    // starts one with the Session's grant), and nothing reaches the event loop. From a model expression the
    // timer itself is dropped first.
    id: 'reopen: leave a synchronous SessionFunction as a timer callback that fires after the run ended',
    body: `
      const helper = probe.helper;
      const now = helper(2, 3);
      if (now !== 5) return 'unexpected: ' + String(now);
      setTimeout(helper, 5, 1, 2);
      return 'kept';`,
    anomaly: 'operator_control_in_run',
    options: { sessionHelper: true },
  },
];

export const approvalCases: AttackCase[] = [
  {
    id: 'lineage: claim a retained definition\'s identity through dispatch options or a forged materialization',
    body: `
      const source = { language: 'javascript', intent: 'define', source: 'export function f() { return 1; }' };
      const m = await nh.currentDispatcher().dispatch(source, { originalDefinitionId: 'sha256:claimed', linkedExport: 'f' });
      if (m.originalDefinitionId !== m.definitionId || m.linkedExport !== undefined) return 'BREACH: dispatch linked to a claimed lineage';
      const retained = nh.RetainedFunction.retain({ ...m, originalDefinitionId: 'sha256:claimed', definitionId: 'sha256:claimed', linkedExport: 'f' }, 'f');
      if (retained.definitionId === 'sha256:claimed') return 'BREACH: retained under a claimed identity';
      const again = (await retained.materialize()).materialization;
      return again.originalDefinitionId === m.definitionId ? 'inert' : 'BREACH: re-materialized under ' + again.originalDefinitionId;`,
  },
  {
    id: 'approval: submit a cell and materialize a generated closure from inside a run',
    body: `
      const out = await nh.currentDispatcher().dispatch({ language: 'javascript', intent: 'define-and-invoke', entry: 'make', source: 'export function make() { return (x) => x; }' });
      const closure = out.invocation.value;
      const submission = probe.session.submit('function approved(x) { return x; }');
      probe.session.materialized(submission, { approved: closure });
      return 'BREACH: submitted from inside the run';`,
    anomaly: 'operator_control_in_run',
  },
  {
    id: 'approval: register a generated closure as a trusted import from inside a run',
    body: `
      const out = await nh.currentDispatcher().dispatch({ language: 'javascript', intent: 'define-and-invoke', entry: 'make', source: 'export function make() { return (x) => x; }' });
      probe.session.registerImported(out.invocation.value, { reviewedSourceHash: nh.hashSource('claimed review') });
      return 'BREACH: registered from inside the run';`,
    anomaly: 'operator_control_in_run',
  },
  {
    id: 'operator controls: install another Session as the active one from inside a run',
    body: `
      nh.setActiveSession(undefined);
      return 'BREACH: replaced the active session';`,
    anomaly: 'operator_control_in_run',
  },
  {
    id: 'operator controls: close the Session (and its admission evidence) from inside a run',
    body: `
      await probe.session.close();
      return 'BREACH: closed the session';`,
    anomaly: 'operator_control_in_run',
  },
];

/**
 * A model-made function left where the event loop calls it after the run ended. `f` is a function a
 * model expression or generated code defined; from a SessionFunction body (operator code, not guarded)
 * it is a generated export the body obtained through dispatch. The refusal is recorded in the Session's
 * late record and the callback is inert: it neither runs nor reaches the event loop.
 */
const LEFT_CALLBACKS: readonly (readonly [string, string])[] = [
  ['setTimeout', `setTimeout(f, 5)`],
  ['setInterval', `setInterval(f, 5)`],
  ['setImmediate', `setTimeout(setImmediate, 5, f)`],
  ['a promise callback', `new Promise((resolve) => setTimeout(resolve, 5)).then(f)`],
  ['an unawaited async function', `(async () => { await new Promise((resolve) => setTimeout(resolve, 5)); f(); })()`],
  ['process.nextTick', `setTimeout(process.nextTick, 5, f)`],
  ['queueMicrotask', `setTimeout(queueMicrotask, 5, f)`],
  ['a listener on process (a host object)', `process.on('nh-attack-late', f)`],
];

const LATE_FROM: readonly (readonly [Place, string, string])[] = [
  ['expression', `const f = () => { probe.late = 'BREACH'; };`, 'expression_code_outside_execution'],
  ['generated', `const f = () => { probe.late = 'BREACH'; };`, 'generated_code_outside_dispatch'],
  [
    'session-function',
    `const out = await nh.currentDispatcher().dispatch({ language: 'javascript', intent: 'define', source: 'export function touch() { probe.late = "BREACH"; }', dependencies: [{ name: 'probe', kind: 'reference', type: 'object' }] });
      const f = out.exports.touch;`,
    'generated_export_outside_run',
  ],
];

export const lateCallbackCases: AttackCase[] = LATE_FROM.flatMap(([place, define, anomaly]) =>
  LEFT_CALLBACKS.map(([mechanism, leave]) => ({
    id: `late callback: a model-made function left in ${mechanism} (${anomaly})`,
    body: `${define}
      ${leave};
      return 'left';`,
    anomaly,
    places: [place],
  })),
);

/**
 * The operator's store objects, reached by reference: their methods are looked up by the host, so shadowing one
 * (an own property, or a prototype layer slipped in between) would hand the host's writes to the attacker. The
 * host uses the methods it read when the Runner or Ledger was built; the edit is recorded.
 */
export const storeObjectCases: AttackCase[] = [
  {
    id: "the step executor: shadow runStep, so later steps skip the model and operation oversight while the run's record says adapter",
    body: `Object.defineProperty(probe.executor, 'runStep', { value: async () => ({ outcome: { kind: 'pass' }, bindings: {} }), configurable: true });
      return 'shadowed';`,
    anomaly: 'executor_modified',
  },
  {
    id: "the perimeter audit store: shadow recordAttempt with an own property, so the egress call's attempt is never recorded",
    body: `Object.defineProperty(probe.auditStore, 'recordAttempt', { value: async () => {}, configurable: true, writable: true });
      return 'shadowed';`,
    anomaly: 'audit_store_modified',
  },
  {
    id: 'the perimeter audit store: slip a prototype layer in whose recordAttempt and recordCompletion do nothing',
    body: `const real = Object.getPrototypeOf(probe.auditStore);
      Object.setPrototypeOf(probe.auditStore, Object.create(real, { recordAttempt: { value: async () => {} }, recordCompletion: { value: async () => {} } }));
      return 'layered';`,
    anomaly: 'audit_store_modified',
  },
  {
    id: "the SQLite ledger store: a prototype that is not SqliteLedgerStore's (same methods, append dropping), so the host's writes go to it",
    body: `const real = Object.getPrototypeOf(probe.ledgerStore);
      const fake = Object.create(Object.getPrototypeOf(real));
      for (const k of Object.getOwnPropertyNames(real)) if (k !== 'constructor' && k !== 'append') Object.defineProperty(fake, k, Object.getOwnPropertyDescriptor(real, k));
      Object.defineProperty(fake, 'append', { value: function () {} });
      Object.setPrototypeOf(probe.ledgerStore, fake);
      return 'swapped';`,
    anomaly: 'ledger_store_modified',
    options: { operatorLedger: true },
  },
  {
    id: 'the SQLite ledger store: shadow select and hasTerminal, so reads of older events see nothing',
    body: `Object.defineProperty(probe.ledgerStore, 'select', { value: () => [], configurable: true });
      Object.defineProperty(probe.ledgerStore, 'hasTerminal', { value: () => false, configurable: true });
      return 'shadowed';`,
    anomaly: 'ledger_store_modified',
    options: { operatorLedger: true },
  },
];

