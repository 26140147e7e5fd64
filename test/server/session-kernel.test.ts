import { describe, expect, test } from 'vitest';
import { NighthawkMime } from '../../shared/mime.js';
import { startSessionKernelServer } from '../support/kernel-server.js';
import { kernelSuite } from '../support/kernel-suite.js';
import { runCell } from '../support/kernel-client.js';
import { hashSource } from '../../kernel/src/index.js';

const suite = kernelSuite(startSessionKernelServer);

const SETUP = `import * as nh from "nighthawk-ts";
import { ScriptedModel, toolCall } from "nighthawk-ts/testing";
const model = new ScriptedModel([
  () => ({ toolCalls: [toolCall("nh_evaluate", { expression: "forbidden()" }), toolCall("nh_evaluate", { expression: "later()" })] }),
  () => ({ toolCalls: [toolCall("nh_output", { result: { kind: "pass" } })] }),
]);
nh.activeSession()!.configure({
  executor: new nh.AgentExecutor({ model }),
  oversight: { inspectOperation: (op) => op.expression === "forbidden()" ? nh.rejectOperation("This helper is unavailable.", "Evaluate 1 + 1 instead.") : nh.accept() },
});`;

describe('the kernel hosting a Session', () => {
  test('cells run against the one live Session and functions they declare become SessionFunctions', async () => {
    const setup = await runCell(suite.kernel, SETUP);
    expect(setup.error).toBeUndefined();
    const define = await runCell(suite.kernel, 'async function calculate() {\n  const r = await nh.step({ program: "execute\\nCompute with a permitted operation.", references: { forbidden: () => 2, later: () => 3 } });\n  return r.kind;\n}');
    expect(define.error).toBeUndefined();
    const approved = await runCell(suite.kernel, 'nh.activeSession()!.isApproved(calculate)');
    expect(approved.result?.['text/plain']).toBe('true');
  });

  test('a SessionFunction call streams its run inline: the rejection reason and guidance, the skipped sibling, and the terminal status last', async () => {
    const run = await runCell(suite.kernel, 'await calculate()');
    expect(run.error).toBeUndefined();
    expect(run.result?.['text/plain']).toBe("'pass'");
    const runDisplays = run.displays.filter((m) => NighthawkMime.run in (m.content as { data: Record<string, unknown> }).data);
    expect(runDisplays[0]!.header.msg_type).toBe('display_data');
    const ids = new Set(runDisplays.map((m) => (m.content as { transient?: { display_id: string } }).transient?.display_id));
    expect(ids.size).toBe(1);
    const last = (runDisplays.at(-1)!.content as { data: Record<string, unknown> }).data;
    const payload = last[NighthawkMime.run] as { status: string; functionName: string; executions: { operations: { status: string; rejection?: { reason: string; guidance?: string }; blockedByOperationId?: string; operationId: string }[] }[] };
    expect(payload.status).toBe('completed');
    expect(payload.functionName).toBe('calculate');
    const ops = payload.executions[0]!.operations;
    expect(ops.map((o) => o.status)).toEqual(['rejected', 'skipped', 'completed']);
    expect(ops[0]!.rejection).toEqual({ reason: 'This helper is unavailable.', guidance: 'Evaluate 1 + 1 instead.' });
    expect(ops[1]!.blockedByOperationId).toBe(ops[0]!.operationId);
    expect(String(last['text/plain'])).toContain('This helper is unavailable.');
  });

  test('a cell can display a run ledger', async () => {
    const run = await runCell(suite.kernel, 'nh.displayLedger({ kind: "operation" })');
    const ledger = run.displays.map((m) => (m.content as { data: Record<string, unknown> }).data[NighthawkMime.ledger]).find(Boolean) as { entries: { kind: string; status?: string }[] };
    expect(ledger.entries.map((e) => e.status)).toEqual(['rejected', 'skipped', 'completed']);
  });

  test('the operator-approval inspector asks over stdin and a rejection goes back to the model', async () => {
    await runCell(suite.kernel, `const approvalModel = new ScriptedModel([
  () => ({ toolCalls: [toolCall("nh_evaluate", { expression: "1 + 1" })] }),
  (m) => ({ toolCalls: [toolCall("nh_output", { result: { kind: "pass" } })] }),
]);
nh.activeSession()!.configure({ executor: new nh.AgentExecutor({ model: approvalModel }), oversight: { inspectOperation: nh.operatorApproval({ timeoutMs: 10000 }) } });
async function askFirst() { await nh.step({ program: "execute\\nAdd." }); return "done"; }`);
    const prompts: string[] = [];
    const run = await runCell(suite.kernel, 'await askFirst()', {
      onStdin: (msg) => {
        prompts.push((msg.content as { prompt: string }).prompt);
        const answer = prompts.length === 1 ? { kind: 'reject-operation', reason: 'not now', guidance: 'finish instead' } : { kind: 'accept' };
        suite.kernel.sendInputReply({ status: 'ok', value: JSON.stringify(answer) }, msg.header as never);
      },
    });
    expect(prompts[0]).toContain('1 + 1');
    // By default only operations ask; the step's output (nh_output) is not put to the operator.
    expect(prompts).toHaveLength(1);
    expect(run.error).toBeUndefined();
    expect(run.result?.['text/plain']).toBe("'done'");
    const approval = run.displays.find((m) => NighthawkMime.approval in (m.content as { data: Record<string, unknown> }).data);
    expect(approval).toBeDefined();
    const last = (run.displays.filter((m) => NighthawkMime.run in (m.content as { data: Record<string, unknown> }).data).at(-1)!.content as { data: Record<string, { executions: { operations: { status: string; rejection?: { reason: string } }[] }[] }> }).data[NighthawkMime.run]!;
    expect(last.executions[0]!.operations[0]).toMatchObject({ status: 'rejected', rejection: { reason: 'not now' } });
  });

  test('the block form works in cells: a Natural block inside nh.function writes back to a real local', async () => {
    const defineSource = `const labelModel = new ScriptedModel([
  () => ({ toolCalls: [toolCall("nh_assign", { target_path: "label", expression: '"urgent"' }), toolCall("nh_output", { result: { kind: "pass" } })] }),
]);
nh.activeSession()!.configure({ executor: new nh.AgentExecutor({ model: labelModel }), oversight: {} });
const classify = nh.function(async function classify(text: string): Promise<string> {
  let label: "urgent" | "normal" = "normal";
  \`execute
  Classify <text> into <:label>.\`;
  return label;
});`;
    const define = await runCell(suite.kernel, defineSource);
    expect(define.error).toBeUndefined();
    // Approved through the core-owned transformation of exactly this cell's source.
    const evidence = await runCell(suite.kernel, 'const classifyEvidence = nh.activeSession()!.evidenceFor(classify)!;\n`${classifyEvidence.route} ${classifyEvidence.sourceHash}`');
    expect(evidence.result?.['text/plain']).toBe(`'core-transformation ${hashSource(defineSource)}'`);
    const run = await runCell(suite.kernel, 'await classify("Server is on fire!")');
    expect(run.error).toBeUndefined();
    expect(run.result?.['text/plain']).toBe("'urgent'");
  });

  test('shorthand properties may name values from earlier cells', async () => {
    await runCell(suite.kernel, 'const shorthandValue = 41;');
    const run = await runCell(suite.kernel, '({ shorthandValue }).shorthandValue + 1');
    expect(run.error).toBeUndefined();
    expect(run.result?.['text/plain']).toBe('42');
  });

  test('a function declared in the same cell as an import is approved too', async () => {
    const run = await runCell(suite.kernel, 'import { z as zz } from "zod";\nasync function withImport() { return zz.string().parse("ok"); }\nnh.activeSession()!.isApproved(withImport)');
    expect(run.error).toBeUndefined();
    const check = await runCell(suite.kernel, 'nh.activeSession()!.isApproved(withImport)');
    expect(check.result?.['text/plain']).toBe('true');
    expect((await runCell(suite.kernel, 'await withImport()')).result?.['text/plain']).toBe("'ok'");
  });
  test('a Natural function defined in a cell can be called later in the same cell: it runs as a SessionFunction', async () => {
    const run = await runCell(suite.kernel, `const sameCellModel = new ScriptedModel([
  () => ({ toolCalls: [toolCall("nh_assign", { target_path: "greeting", expression: '"hi Ada"' }), toolCall("nh_output", { result: { kind: "pass" } })] }),
]);
nh.activeSession()!.configure({ executor: new nh.AgentExecutor({ model: sameCellModel }), oversight: {} });
const greet = nh.function(async function greet(name: string): Promise<string> {
  let greeting = "";
  \`execute
  Greet <name> into <:greeting>.\`;
  return greeting;
});
async function twice(name: string) { return (await greet(name)) + "!"; }
const approvedInCell = nh.activeSession()!.isApproved(twice);
await twice("Ada")`);
    expect(run.error).toBeUndefined();
    expect(run.result?.['text/plain']).toBe("'hi Ada!'");
    const runDisplays = run.displays.filter((m) => NighthawkMime.run in (m.content as { data: Record<string, unknown> }).data);
    const last = (runDisplays.at(-1)!.content as { data: Record<string, { status: string; functionName: string }> }).data[NighthawkMime.run]!;
    expect(last).toMatchObject({ status: 'completed', functionName: 'twice' });
    expect((await runCell(suite.kernel, 'approvedInCell')).result?.['text/plain']).toBe('true');
  });

  test('declarations that completed before a cell threw survive into the next cell; later ones do not', async () => {
    await runCell(suite.kernel, 'let survivor: number = 1;');
    const thrown = await runCell(suite.kernel, 'const keepMe = 41;\nfunction keepFn() { return 2; }\nthrow new Error("x");\nconst never = 1;\nlet survivor = "shadowed";');
    expect(thrown.error?.evalue).toBe('x');
    const next = await runCell(suite.kernel, 'keepMe + (await keepFn()) + survivor');
    expect(next.error).toBeUndefined();
    expect(next.result?.['text/plain']).toBe('44');
    const gone = await runCell(suite.kernel, 'never');
    expect(gone.error?.ename).toBe('TypeScriptError');
  });
});
