import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { installedKernel, runPythonReport, type JupyterEnv } from './zmq-fixture.js';

// Typed one line each at `jupyter console --simple-prompt` (test/zmq/py/console_session.py drives it with pexpect).
const STEPS: Array<{ code: string; answer_after?: string; answers?: string[] }> = [
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
  {
    code:
      'const approvalModel = new ScriptedModel([() => ({ toolCalls: [toolCall("nh_evaluate", { expression: "1 + 1" })] }), () => ({ toolCalls: [toolCall("nh_output", { result: { kind: "pass" } })] })]); ' +
      'nh.activeSession()!.configure({ executor: new nh.AgentExecutor({ model: approvalModel }), oversight: { inspectOperation: nh.operatorApproval({ timeoutMs: 20000, kinds: ["evaluate", "output"] }) } });',
  },
  { code: 'async function askFirst() { await nh.step({ program: "execute\\nAdd." }); return "done"; }' },
  // The approval prompts arrive as stdin input_requests; the answers are typed at them.
  { code: 'await askFirst()', answer_after: 'abort <reason>', answers: ['reject not now|finish instead', 'accept'] },
  { code: 'nh.displayLedger({ kind: "operation" })' },
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
  transcript = await runPythonReport<Transcript>('console_session.py', [jupyter.kernelName, steps], jupyter, 120_000);
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

  test('nh.operatorApproval prompts at the console (stdin input_request) and a typed rejection goes back to the model', () => {
    const out = transcript.steps[8]!.output;
    expect(out).toContain('Approve evaluate 1 + 1: pending? accept / reject <reason> / abort <reason>');
    expect(out).toContain('Approve output pass: pending?');
    expect(out).toContain("Out[9]: 'done'");
    expect(transcript.steps[9]!.output).toContain('evaluate 1 + 1: rejected — not now (guidance: finish instead)');
  });
});
