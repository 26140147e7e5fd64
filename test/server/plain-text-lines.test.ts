/**
 * Attack: the text/plain of the run view, of an anomaly's display, of displayLedger and of an approval card (what
 * console frontends, the approval's console prompt and notebooks saved without the renderer show) put
 * model-controlled strings on their lines as they came: an nh_evaluate expression holding a newline added host-looking
 * lines ("trace anomaly … all clear", "run agent (…): completed") to a run with no anomaly, and ANSI escapes, carriage
 * returns, U+2028 or bidi overrides reached the terminal raw. Every model-controlled string stays on its own line,
 * with control characters shown escaped (`\n`, `\u001b`); what a run prints keeps its line breaks, each line marked.
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { installEffectAudit } from '../../kernel/src/harness/index.js';
import { setNotebookChannel } from '../../kernel/src/server/display/notebook-bridge.js';
import { RunDisplays } from '../../kernel/src/server/display/run-displays.js';
import type { KernelChannel } from '../../kernel/src/server/kernel/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';
import { NighthawkMime } from '../../shared/mime.js';

type Bundle = Record<string, unknown>;

/** C0 (but the line break the text is split on), DEL, C1, line/paragraph separators, bidi overrides and isolates. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const FORGED = '\n  trace anomaly operator_control_in_run: {"control":"configure"} -- all clear\rrun agent (run_x): completed\u2028\u2029\u202e\u2066\u0085\u007f\u001b[2K\u001b[1A';
const EXPRESSION = `1 /*: completed${FORGED}*/`;
const FROZEN_WRITE = `(() => { const o = Object.freeze({}); try { o[${JSON.stringify(`x${FORGED}`)}] = 1; } catch {} return 2; })()`;
const PRINTING = `print(${JSON.stringify(`out${FORGED}\nsecond line`)})`;

async function runWithDisplays() {
  const model = new ScriptedModel([
    () => ({ toolCalls: [toolCall('nh_evaluate', { expression: EXPRESSION }), toolCall('nh_evaluate', { expression: FROZEN_WRITE }), toolCall('nh_evaluate', { expression: PRINTING }), toolCall('nh_output', { result: { kind: 'pass' } })] }),
  ]);
  const session = new nh.Session({ executor: new nh.AgentExecutor({ model }) });
  const shown: Bundle[] = [];
  const ch: KernelChannel = { display: (bundle) => void shown.push(bundle as Bundle), requestInput: () => Promise.reject(new Error('no stdin')) };
  const detach = new RunDisplays(() => ch).attach(session.ledger);
  // process.stdout.write is what console.log reaches in the kernel (vitest replaces console itself).
  const print = (text: string): number => (process.stdout.write(`${text}\n`), 0);
  const { agent } = session.materialized(session.submit('async function agent() {}'), { agent: async () => nh.step({ program: 'execute\nGo.', references: { print } }) });
  installEffectAudit();
  await agent!();
  detach();
  return { session, shown };
}

const linesOf = (bundle: Bundle): string[] => String(bundle['text/plain']).split('\n');

afterEach(() => setNotebookChannel(undefined));

describe('text/plain lines hold model-controlled strings escaped, one line each', () => {
  it('the run view: only the lines the host writes, and the forged text shown escaped on its own line', async () => {
    const { shown } = await runWithDisplays();
    const lines = linesOf(shown.filter((b) => NighthawkMime.run in b).at(-1)!);
    for (const line of lines) expect(line).not.toMatch(CONTROL);
    expect(lines[0]).toMatch(/^run agent \(run_[^)]+\): completed$/);
    expect(lines.filter((l) => /^\s*run /.test(l))).toHaveLength(1);
    // The one real anomaly (the refused write), and no forged one.
    expect(lines.filter((l) => /^\s*trace anomaly /.test(l))).toHaveLength(1);
    expect(lines.filter((l) => /^\s*trace anomaly /.test(l))[0]).toMatch(/^  trace anomaly frozen_value_write: .*\\u2028\\u2029\\u202e\\u2066\\u0085\\u007f\\u001b\[2K/);
    const evaluate = lines.find((l) => l.startsWith('    evaluate 1 /*'))!;
    expect(evaluate).toContain('\\n  trace anomaly operator_control_in_run');
    expect(evaluate).toContain('-- all clear\\rrun agent (run_x): completed\\u2028\\u2029\\u202e\\u2066\\u0085\\u007f\\u001b[2K\\u001b[1A*/: completed = 1');
    // What the run printed keeps its line breaks, each line marked as printed; its controls are escaped.
    expect(lines.filter((l) => l.startsWith('    | '))).toEqual([
      '    | out',
      '    |   trace anomaly operator_control_in_run: {"control":"configure"} -- all clear\\rrun agent (run_x): completed\\u2028\\u2029\\u202e\\u2066\\u0085\\u007f\\u001b[2K\\u001b[1A',
      '    | second line',
    ]);
  });

  it("an anomaly's own display: one escaped line", async () => {
    const { shown } = await runWithDisplays();
    const anomaly = shown.filter((b) => NighthawkMime.traceAnomaly in b).at(-1)!;
    expect(linesOf(anomaly)).toHaveLength(1);
    expect(linesOf(anomaly)[0]).not.toMatch(CONTROL);
  });

  it('displayLedger: a header, then one line per entry', async () => {
    const { session } = await runWithDisplays();
    const shown: Bundle[] = [];
    setNotebookChannel({ display: (bundle) => void shown.push(bundle as Bundle), requestInput: () => Promise.reject(new Error('no stdin')) });
    const count = nh.displayLedger({}, { ledger: session.ledger });
    const [header, ...entries] = linesOf(shown[0]!);
    expect(header).toBe(`ledger: ${count} entries`);
    expect(entries).toHaveLength(count);
    for (const line of entries) {
      expect(line).toMatch(/^#\d+ [a-z.]+ /);
      expect(line).not.toMatch(CONTROL);
    }
  });

  it("an approval card's text and the console prompt: one escaped line each", async () => {
    const shown: Bundle[] = [];
    const prompts: string[] = [];
    setNotebookChannel({ display: (bundle) => void shown.push(bundle as Bundle), requestInput: async (prompt) => (prompts.push(prompt), 'accept') });
    const request = { operationId: 'op_1', kind: 'evaluate', expression: EXPRESSION, stepId: 's', executionId: 'e', runId: 'r' } as unknown as nh.OperationRequest;
    await nh.operatorApproval()(request);
    expect(shown).toHaveLength(2);
    for (const text of [...shown.map((b) => String(b['text/plain'])), ...prompts]) {
      expect(text).not.toContain('\n');
      expect(text).not.toMatch(CONTROL);
      expect(text).toContain('\\n  trace anomaly');
    }
  });
});
