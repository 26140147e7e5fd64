/**
 * The kernel host that makes a notebook kernel a Session environment: every cell's source is
 * submitted to the Session before it runs, functions a cell declares become SessionFunctions, and
 * the Session's ledger is streamed into the running cell and persisted under the data directory.
 * Loaded by the kernel process from the built library, so cells share this exact instance.
 */
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { AgentExecutor, UsageError, mayContainNaturalBlocks, redactValue, transformNaturalBlocks, type StepExecutor } from '../../core/index.js';
import { Ledger, NaturalExecutionError, SqliteLedgerStore } from '../../harness/index.js';
import { OpenAIModelClient } from '../../model/index.js';
import { Session, activeSession, isSessionCallResult, setActiveSession, type Submission } from '../../session/index.js';
import type { KernelChannel, KernelHost, KernelHostContext } from '../kernel/index.js';
import { setNotebookChannel, setPersistedLedger } from './notebook-bridge.js';
import { oneLine } from './plain-text.js';
import { RunDisplays } from './run-displays.js';

/** Until the operator configures one, a model from the environment, or an executor that says how to configure it. */
function defaultExecutor(): StepExecutor & { admitsExecutorSteps?: true } {
  if (process.env.OPENAI_API_KEY || process.env.OPENAI_BASE_URL) return new AgentExecutor({ model: new OpenAIModelClient() });
  // It never sends a provider request, so it trivially admits its (zero) executor steps.
  return {
    admitsExecutorSteps: true,
    runStep: async () => {
      throw new UsageError(
        'No model is configured for this Session. Call activeSession().configure({ executor: new AgentExecutor({ model }) }) ' +
          '(a ScriptedModel, a ReplayModelClient cassette, or OpenAIModelClient), or set OPENAI_API_KEY / OPENAI_BASE_URL before starting.',
      );
    },
  };
}

export async function createKernelHost(channel: KernelChannel, context: KernelHostContext): Promise<KernelHost> {
  let store: SqliteLedgerStore | undefined;
  if (context.dataDir) {
    mkdirSync(context.dataDir, { recursive: true });
    store = new SqliteLedgerStore(path.join(context.dataDir, 'ledger.db'));
    setPersistedLedger(store);
  }
  // With a data directory the Session's ledger lives in SQLite and keeps only a window in memory.
  const existing = activeSession();
  const session = existing ?? new Session({ executor: defaultExecutor(), ...(store ? { ledger: new Ledger({ store }) } : {}) });
  // A Session created before this host writes to no store of ours: persist what its ledger appends.
  if (store && existing) store.attach(session.ledger);
  setActiveSession(session);
  setNotebookChannel(channel);
  const displays = new RunDisplays(() => channel);
  displays.attach(session.ledger);
  let current: Submission | undefined;
  return {
    submitCell(source) {
      current = session.submit(source);
    },
    // The submitted source is the approval: its functions are approved as the cell binds them, so one
    // defined and called in the same cell runs as a SessionFunction.
    bindDeclared(name, value) {
      if (!current) return value;
      try {
        return session.materialized(current, { [name]: value })[name] ?? value;
      } catch {
        // Bound from inside a run (no operator control there): the raw value, never approved.
        return value;
      }
    },
    redact: (content) => redactValue(content),
    // The run view above the error already says what failed and why: the error names it, once.
    describeError(error) {
      if (!(error instanceof NaturalExecutionError)) return undefined;
      const shown = displays.shownFailure(error.executionId);
      if (!shown) return undefined;
      return { ename: error.name, evalue: oneLine(`${shown.stepId} failed in run ${shown.functionName} (${shown.errorName}, shown in the run view above)`) };
    },
    awaitsValue: isSessionCallResult,
    afterCell(result, scope) {
      // A cell that closed the Session declared nothing to approve: its names keep their raw values.
      if (!current || !scope || result.kind !== 'ok' || session.closed) return;
      const adapters = session.materialized(current, scope.declared);
      for (const [name, adapter] of Object.entries(adapters)) scope.rebind(name, adapter);
    },
  };
}

/** The cell pre-transform: Natural blocks in cells become step calls on this library instance. */
export function transformCell(source: string, context: { executionCount?: number } = {}): { code: string } {
  if (!mayContainNaturalBlocks(source)) return { code: source };
  // Steps are named as cell frames are: `Cell [3], line 4`.
  const stepLabel = context.executionCount === undefined ? undefined : `Cell [${context.executionCount}]`;
  const result = transformNaturalBlocks(source, { fileName: 'cell.ts', runtimeModule: 'nighthawk-ts', externalNames: [], ...(stepLabel ? { stepLabel } : {}) });
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) throw new UsageError(errors.map((d) => `${d.line}:${d.column} ${d.message}`).join('\n'));
  return { code: result.code };
}
