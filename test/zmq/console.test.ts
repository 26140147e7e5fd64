import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { installedKernel, runPython, type JupyterEnv } from './zmq-fixture.js';

// Typed one line each at `jupyter console --simple-prompt` (test/zmq/py/console_session.py drives it with pexpect).
const STEPS = [
  { code: '1 + 1' },
  {
    code:
      'import * as nh from "nighthawk-ts"; import { ScriptedModel, toolCall } from "nighthawk-ts/testing"; ' +
      'const model = new ScriptedModel([() => ({ toolCalls: [toolCall("nh_evaluate", { expression: "forbidden()" }), toolCall("nh_evaluate", { expression: "later()" })] }), () => ({ toolCalls: [toolCall("nh_output", { result: { kind: "pass" } })] })]); ' +
      'nh.activeSession()!.configure({ executor: new nh.AgentExecutor({ model }), oversight: { inspectOperation: (op) => op.expression === "forbidden()" ? nh.rejectOperation("This helper is unavailable.", "Evaluate 1 + 1 instead.") : nh.accept() } });',
  },
  { code: 'async function calculate() { const r = await nh.step({ program: "execute\\nCompute with a permitted operation.", references: { forbidden: () => 2, later: () => 3 } }); return r.kind; }' },
  { code: 'await calculate()' },
  { code: 'nh.displayLedger({ kind: "operation" })' },
  { code: '?nh.displayLedger' },
];

interface Transcript {
  banner: string;
  steps: Array<{ code: string; output: string }>;
}

let jupyter: JupyterEnv;
let transcript: Transcript;

beforeAll(async () => {
  jupyter = await installedKernel();
  const steps = path.join(jupyter.dir, 'steps.json');
  writeFileSync(steps, JSON.stringify(STEPS));
  const result = await runPython('console_session.py', [jupyter.kernelName, steps], jupyter, 120_000);
  const last = result.stdout.trim().split('\n').at(-1) ?? '';
  try {
    transcript = JSON.parse(last) as Transcript;
  } catch {
    throw new Error(`console_session.py printed no transcript (exit ${result.code})\n${result.stdout}\n${result.stderr}`);
  }
}, 150_000);

afterAll(() => jupyter?.cleanup());

describe('jupyter console --kernel <name>', () => {
  test('the console starts the kernel from its kernelspec and shows the banner', () => {
    expect(transcript.banner).toContain('Nighthawk TS kernel');
  });

  test('a cell runs and its value is printed as Out[n]', () => {
    expect(transcript.steps[0]!.output).toMatch(/Out\[1\]: 2/);
  });

  test('an operation rejected by the Session inspector shows the text/plain fallback of the project MIME type', () => {
    const run = transcript.steps[3]!.output;
    expect(run).toMatch(/run calculate \(run_\w+\)/);
    expect(run).toContain("Out[4]: 'pass'");
    const ledger = transcript.steps[4]!.output;
    expect(ledger).toContain('evaluate forbidden(): rejected — This helper is unavailable. (guidance: Evaluate 1 + 1 instead.)');
    expect(ledger).toMatch(/evaluate later\(\): skipped \(blocked by op_\w+\)/);
  });

  test('a `?name` cell pages the signature through the execute_reply payload', () => {
    expect(transcript.steps[5]!.output).toContain('function displayLedger(');
  });
});
