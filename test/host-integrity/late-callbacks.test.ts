/**
 * A model-made function left in an event-loop callback fires after its run ended. The host's guard
 * refuses it; this suite checks what a plain library process (no kernel, no uncaughtException handler)
 * sees then: the process keeps running, the callback is inert (no effect, nothing appended to the
 * finished run), and the refusal is recorded once in the Session's late anomaly record. Each case runs
 * in its own child Node process importing the built library from dist/.
 */
import { spawn, execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const distIndex = path.join(root, 'dist', 'kernel', 'src', 'index.js');
const distTesting = path.join(root, 'dist', 'kernel', 'src', 'testing.js');
const child = path.join(root, 'test', 'host-integrity', 'fixtures', 'late-callback-child.mjs');

const MECHANISMS = ['setTimeout', 'setInterval', 'setImmediate', 'promise', 'asyncFunction', 'nextTick', 'queueMicrotask', 'emitter', 'processEmitter', 'keptOutsideRun'] as const;
/** Where the model-made function comes from, and the anomaly its late refusal records. */
const PLACES = {
  expression: 'expression_code_outside_execution',
  generated: 'generated_code_outside_dispatch',
  'session-function': 'generated_export_outside_run',
} as const;

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : statSync(full).mtimeMs);
  }
  return newest;
}

beforeAll(() => {
  // The child imports dist/: build it when it is missing or older than the sources.
  let built = 0;
  try {
    built = statSync(distIndex).mtimeMs;
  } catch {
    built = 0;
  }
  if (built < newestSource(path.join(root, 'kernel', 'src'))) {
    execFileSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'ignore' });
  }
}, 240_000);

interface ChildResult {
  readonly code: number | null;
  readonly stderr: string;
  readonly result?: {
    outcome: string;
    runId: string;
    effects: string[];
    /** The Session's late record (after the run ended). */
    anomalies: { runId: string; anomalyKind: string; error?: string }[];
    /** trace.anomaly events in the run's ledger. */
    recorded: { runId: string; anomalyKind: string; error?: string }[];
    afterRunEnd: number;
    listeners: number;
  };
}

function runChild(place: string, mechanism: string): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [child, distIndex, distTesting, place, mechanism], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // A refused interval that kept firing would keep the child alive forever.
    const timer = setTimeout(() => proc.kill('SIGKILL'), 30_000);
    proc.on('error', reject);
    proc.on('close', (code) => {
      clearTimeout(timer);
      const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
      resolve({ code, stderr, result: line ? JSON.parse(line.slice('RESULT '.length)) : undefined });
    });
  });
}

describe.concurrent('a model-made function left in an event-loop callback after its run ended', () => {
  for (const [place, anomaly] of Object.entries(PLACES)) {
    for (const mechanism of MECHANISMS) {
      it(`${mechanism}, from ${place}: the process keeps running, the callback is inert, the refusal is recorded`, async () => {
        const { code, stderr, result } = await runChild(place, mechanism);
        expect(stderr, 'nothing reached the event loop').not.toMatch(/Error/);
        expect(code, 'the library process exited normally').toBe(0);
        expect(result, 'the process reported after the late callback fired').toBeDefined();
        expect(result!.outcome).toBe('returned:done');
        expect(result!.effects, 'no effect of the late callback ran').toEqual([]);
        expect(result!.afterRunEnd, 'nothing appended to the finished run').toBe(0);
        expect(result!.listeners, 'a refused listener is removed').toBe(0);
        const recorded = result!.anomalies.filter((a) => a.anomalyKind === anomaly);
        expect(recorded.map((a) => a.runId), `the late refusal is recorded once (anomalies: ${JSON.stringify(result!.anomalies)})`).toEqual([result!.runId]);
      }, 60_000);
    }
  }

  // The absorption is for recorded refusals only: operator code's own failures keep Node's default.
  for (const [mechanism, message] of [['ordinaryTimerError', 'ordinary timer failure'], ['ordinaryRejection', 'ordinary rejection']] as const) {
    it(`${mechanism} beside an absorbed refusal still ends the process as Node would`, async () => {
      const { code, stderr, result } = await runChild('session-function', mechanism);
      expect(code).toBe(1);
      expect(stderr).toContain(`Error: ${message}`);
      expect(result, 'the process ended before reporting').toBeUndefined();
    }, 60_000);
  }
});

/**
 * A model must not be able to end the host process with an error nobody catches: a rejected promise it leaves
 * unhandled, an unawaited async function that throws, a throw in its own microtask or timer while its code still
 * runs. Each is recorded once as `interior_error_uncaught` (in the run's ledger while it runs, in the late record
 * after) and the process keeps running; the same from operator code keeps Node's default.
 */
describe.concurrent('an error model code lets go with no catcher', () => {
  const CASES = [
    ['unhandledRejection', 'Error: model rejection', ['expression', 'generated']],
    ['primitiveRejection', '7', ['expression', 'generated']],
    ['asyncFunctionThrow', 'Error: model async failure', ['expression', 'generated']],
    ['liveMicrotaskThrow', 'Error: model microtask failure', ['expression', 'generated']],
    // A model expression's timers do not run between its operations, so a live timer is generated code's.
    ['liveTimerThrow', 'Error: model timer failure', ['generated']],
    ['livePrimitiveThrow', 'model primitive failure', ['generated']],
  ] as const;
  for (const [mechanism, described, places] of CASES) {
    for (const place of places) {
      it(`${mechanism}, from ${place}: the process keeps running and the error is recorded once`, async () => {
        const { code, stderr, result } = await runChild(place, mechanism);
        expect(stderr, 'nothing reached the event loop').not.toMatch(/Error|model/);
        expect(code, 'the library process exited normally').toBe(0);
        expect(result!.outcome).toBe('returned:done');
        const all = [...result!.recorded, ...result!.anomalies].filter((a) => a.anomalyKind === 'interior_error_uncaught');
        expect(all, `recorded once (ledger: ${JSON.stringify(result!.recorded)}, late: ${JSON.stringify(result!.anomalies)})`).toEqual([
          { runId: result!.runId, anomalyKind: 'interior_error_uncaught', error: described },
        ]);
      }, 60_000);
    }
  }

  for (const [mechanism, message] of [['unhandledRejection', 'Error: model rejection'], ['asyncFunctionThrow', 'Error: model async failure'], ['liveMicrotaskThrow', 'Error: model microtask failure']] as const) {
    it(`${mechanism} written by the operator (a SessionFunction body) still ends the process as Node would`, async () => {
      const { code, stderr, result } = await runChild('session-function', mechanism);
      expect(code).toBe(1);
      expect(stderr).toContain(message);
      expect(result, 'the process ended before reporting').toBeUndefined();
    }, 60_000);
  }
});
