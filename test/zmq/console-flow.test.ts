import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { installedKernel, runPythonReport, type JupyterEnv } from './zmq-fixture.js';

// Issue 15.6: the console a newcomer gets (`jupyter console --kernel nighthawk`, the full prompt_toolkit prompt,
// which asks is_complete on every Enter), driven through a pseudo-terminal by test/zmq/py/console_flow.py.
const STEPS: Array<{ code: string; interrupt_after?: string }> = [
  { code: '1 + 1' },
  { code: 'let a = 40' },
  { code: 'a + 2' },
  {
    code:
      'import * as nh from "nighthawk-ts"; import { ScriptedModel, toolCall } from "nighthawk-ts/testing"; ' +
      'const model = new ScriptedModel([() => ({ toolCalls: [toolCall("nh_evaluate", { expression: "1 + 1" })] }), () => ({ toolCalls: [toolCall("nh_output", { result: { kind: "pass" } })] })]); ' +
      'nh.activeSession()!.configure({ executor: new nh.AgentExecutor({ model }), oversight: {} });',
  },
  { code: 'async function calculate() { const r = await nh.step({ program: "execute\\nAdd one and one." }); return r.kind; }' },
  { code: 'await calculate()' },
  { code: 'console.log("sleeping"); await new Promise((r) => setTimeout(r, 120000))', interrupt_after: 'sleeping' },
  { code: '"after interrupt"' },
  { code: 'a * 2' },
  { code: '"last"' },
];

interface Transcript {
  banner: string;
  prompts: number[];
  steps: Array<{ code: string; output: string; seconds: number; timeout?: true }>;
}

const plain = (text: string): string => text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');

let jupyter: JupyterEnv;
let transcript: Transcript;

beforeAll(async () => {
  jupyter = await installedKernel();
  const steps = path.join(jupyter.dir, 'steps.json');
  writeFileSync(steps, JSON.stringify(STEPS));
  transcript = await runPythonReport<Transcript>('console_flow.py', [jupyter.kernelName, steps], jupyter, 240_000);
  for (const step of transcript.steps) step.output = plain(step.output);
  transcript.banner = plain(transcript.banner);
}, 300_000);

afterAll(() => jupyter?.cleanup());

describe('jupyter console with the full prompt', () => {
  test('ten inputs each run once, with prompt numbers in order', () => {
    expect(transcript.steps.filter((s) => s.timeout)).toEqual([]);
    expect(transcript.prompts).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(transcript.steps[0]!.output).toContain('Out[1]: 2');
    expect(transcript.steps[2]!.output).toContain('Out[3]: 42');
    expect(transcript.steps[9]!.output).toContain("Out[10]: 'last'");
  });

  test('no is_complete warnings and no continuation prompts for complete lines', () => {
    const all = transcript.banner + transcript.steps.map((s) => s.output).join('');
    expect(all).not.toMatch(/is_complete/);
    expect(all).not.toContain('...:');
  });

  test('Ctrl+C interrupts a long sleep and the next input runs', () => {
    const interrupted = transcript.steps[6]!;
    expect(interrupted.output).toContain('KeyboardInterrupt');
    expect(interrupted.seconds).toBeLessThan(30);
    // The interrupted cell reports a KeyboardInterrupt, not a late value.
    expect(transcript.steps.map((s) => s.output).join('')).toContain('KeyboardInterrupt: Execution interrupted');
    expect(transcript.steps[7]!.output).toContain("Out[8]: 'after interrupt'");
    expect(transcript.steps[8]!.output).toContain('Out[9]: 80');
  });

  test('the run display, which the console cannot update in place, is printed once more in its final state', () => {
    const run = transcript.steps[5]!.output;
    expect(run).toContain("Out[6]: 'pass'");
    const finals = run.split('\n').filter((line) => /run calculate \(run_\w+\)/.test(line) && /completed/.test(line));
    expect(finals).toHaveLength(1);
    expect(run.split('\n').filter((line) => /run calculate \(run_\w+\): running/.test(line))).toHaveLength(1);
  });
});
