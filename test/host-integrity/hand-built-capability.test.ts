/**
 * A capability the operator wrote as an object literal (the `Capability` interface, without defineCapability)
 * is as much host authority as a defined one. Seed 001: "Capability grants, types, declared semantic
 * footprints, perimeter policy, and durable attempt admission are checked before entering the capability body";
 * seed 000: nothing untrusted may widen authority or erase the perimeter audit. The host admits such a capability
 * once, the first time it sees it (the Session's construction, a run's grant), as a frozen copy with its own
 * request-type copy: later edits to the operator's object (an emptied footprint, a replaced body or validator)
 * change nothing, in the run where they are made or any later one. Each attack runs from a model expression,
 * generated code and a SessionFunction body.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as nh from '../../kernel/src/index.js';
import { ScriptedModel, toolCall } from '../../kernel/src/testing.js';
import { attack, expectContained, PLACES } from './support.js';

const CAP = `const cap = probe.grant.capabilities.find((c) => c.name === 'send_report');`;

const CASES = [
  {
    id: 'empties the footprint, so the egress call would skip policy and the durable attempt',
    body: `${CAP} try { cap.footprint.length = 0; } catch {} cap.footprint = []; return 'emptied';`,
  },
  {
    id: 'replaces the body, so its own function would run as the capability (with the perimeter allowance)',
    body: `${CAP} cap.run = (args) => { probe.late = 'BREACH'; return { sent: 'forged' }; }; return 'replaced';`,
  },
  {
    id: "replaces the request type's safeParse, so the gateway would admit a forged request",
    body: `${CAP} cap.request.safeParse = () => ({ success: true, data: { target: 'forged' } }); cap.request = { safeParse: () => ({ success: true, data: { target: 'forged' } }) }; return 'replaced';`,
  },
] as const;

describe('a hand-built capability is admitted once, as a frozen copy', () => {
  for (const c of CASES) {
    for (const place of PLACES) {
      it(`${place}: ${c.id}`, async () => {
        const result = await attack(place, c.body, { literalCapability: true });
        // Inert: the operator's object changed, the host's admitted copy did not.
        expect(result.outcome).not.toMatch(/^BREACH|^threw/);
        expectContained(result, undefined, expect);
        expect(result.auditRows).toEqual(['send_report:{"target":"real"}:completed']);
      });
    }
  }

  it('an edit made in one run does not reach a later run of the same Session', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nh-hand-built-'));
    const auditPath = join(dir, 'audit.db');
    const store = new nh.SqlitePerimeterAuditStore({ path: auditPath });
    const sent: unknown[] = [];
    const cap = {
      name: 'send_report',
      description: 'Posts a report (egress)',
      footprint: ['egress'] as nh.PerimeterClass[],
      request: z.object({ target: z.string() }),
      signature: '(send_reportRequest) => unknown',
      run: (args: { target: string }) => (sent.push(args), { sent: args.target }),
    };
    const model = new ScriptedModel((_m, info) => {
      if (info.requestNumber === 1) return { toolCalls: [toolCall('send_report', { target: 'real' })] };
      return { toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] };
    });
    const session = new nh.Session({ executor: new nh.AgentExecutor({ model }), platformPolicy: ['egress'], perimeterAuditStore: store, grant: { capabilities: [cap as nh.Capability] } });
    const { tamper, work } = session.materialized(session.submit('async function tamper() {}\nasync function work() {}'), {
      tamper: async () => {
        cap.footprint = [];
        cap.run = () => ({ sent: 'forged' });
      },
      work: async () => nh.step({ program: 'execute\nSend the report.' }),
    });
    await tamper!();
    await work!();
    expect(sent).toEqual([{ target: 'real' }]);
    store.close();
    const db = new Database(auditPath, { readonly: true });
    const rows = db.prepare('SELECT capability, arguments FROM perimeter_attempt').all();
    db.close();
    expect(rows).toEqual([{ capability: 'send_report', arguments: '{"target":"real"}' }]);
    const calls = session.ledger.select({ kind: 'capability.call' }).map((e) => (e.data as { footprint: unknown }).footprint);
    expect(calls).toEqual([['egress']]);
  });

  it('a malformed hand-built capability is refused when the grant is admitted, with what to fix', () => {
    const bad = (patch: Record<string, unknown>) => ({ name: 'x', description: '', footprint: [], request: z.object({}), signature: '() => unknown', run: () => 1, ...patch }) as unknown as nh.Capability;
    const admit = (cap: nh.Capability) => () => new nh.Session({ executor: new nh.AgentExecutor({ model: new ScriptedModel(() => ({ text: '' })) }), grant: { capabilities: [cap] } });
    expect(admit(bad({ footprint: ['teleport'] }))).toThrow(/unknown footprint class 'teleport'/);
    expect(admit(bad({ name: 'nh_sneaky' }))).toThrow(/must be an identifier/);
    expect(admit(bad({ request: {} }))).toThrow(/needs a zod request schema/);
    expect(admit(bad({ run: 'not a function' }))).toThrow(/needs a run function/);
  });
});

/**
 * Seed 001: oversight decides on the operation as proposed, and the capability runs what was inspected. A model
 * that replaces the request type's `safeParse` on the operator's schema (reachable as a tool's `input`) could show
 * the inspector one request while the gateway, which parses the model's arguments with its own copy, runs another.
 * The core checks a capability's arguments with that same copy.
 */
describe("the inspector sees the request the gateway runs, whatever the operator's schema object says", () => {
  const FORGE = `
    const tool = nh.currentState().tools.find((t) => t.name === 'send_report');
    (tool ? tool.input : probe.send.request).safeParse = () => ({ success: true, data: { target: 'harmless' } });
    return 'forged';`;

  function setup() {
    const sent: unknown[] = [];
    const seen: unknown[] = [];
    const send = nh.defineCapability({
      name: 'send_report',
      description: 'Posts a report (egress)',
      footprint: ['egress'],
      request: z.object({ target: z.string() }),
      run: (args) => (sent.push(args), { sent: args.target }),
    });
    const oversight = {
      inspectOperation: (r: nh.OperationRequest) => {
        if (r.kind !== 'tool') return nh.accept();
        seen.push(r.arguments);
        return (r.arguments as { target?: unknown }).target === 'harmless' ? nh.accept() : nh.rejectOperation('only harmless targets');
      },
    };
    const store = new nh.SqlitePerimeterAuditStore({ path: join(mkdtempSync(join(tmpdir(), 'nh-forged-parse-')), 'audit.db') });
    return { sent, seen, send, oversight, store };
  }

  it('from a model expression', async () => {
    const { sent, seen, send, oversight, store } = setup();
    const model = new ScriptedModel((_m, info) => {
      if (info.requestNumber === 1) return { toolCalls: [toolCall('nh_evaluate', { expression: `(() => { ${FORGE} })()` })] };
      if (info.requestNumber === 2) return { toolCalls: [toolCall('send_report', { target: 'evil' })] };
      return { toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] };
    });
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }), platformPolicy: ['egress'], perimeterAuditStore: store });
    await runner.run(async () => nh.step({ program: 'execute\nReport.' }), { oversight, grant: { capabilities: [send], references: { nh, probe: { send } } } }).catch(() => undefined);
    expect(sent).toEqual([]);
    expect(seen).toEqual([{ target: 'evil' }]);
    expect(store.list()).toEqual([]);
  });

  it('from a SessionFunction body', async () => {
    const { sent, seen, send, oversight, store } = setup();
    const model = new ScriptedModel((_m, info) => (info.requestNumber === 1 ? { toolCalls: [toolCall('send_report', { target: 'evil' })] } : { toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] }));
    const session = new nh.Session({ executor: new nh.AgentExecutor({ model }), platformPolicy: ['egress'], perimeterAuditStore: store, grant: { capabilities: [send] }, oversight });
    const body = new Function('nh', 'probe', `return async function forge() { (() => { ${FORGE} })(); await nh.step({ program: 'execute\\nReport.' }); };`)(nh, { send }) as () => Promise<void>;
    const { forge } = session.materialized(session.submit('async function forge() {}'), { forge: body });
    await forge!().catch(() => undefined);
    expect(sent).toEqual([]);
    expect(seen).toEqual([{ target: 'evil' }]);
  });

  it('from generated code', async () => {
    const { sent, seen, send, oversight, store } = setup();
    const model = new ScriptedModel((_m, info) => (info.requestNumber === 1 ? { toolCalls: [toolCall('send_report', { target: 'evil' })] } : { toolCalls: [toolCall('nh_output', { result: { kind: 'pass' } })] }));
    const runner = new nh.Runner({ executor: new nh.AgentExecutor({ model }), platformPolicy: ['egress'], perimeterAuditStore: store });
    await runner
      .run(
        async (ctx) => {
          const module = await ctx.dispatch({
            language: 'javascript',
            intent: 'define',
            source: `export function forge() { ${FORGE} }`,
            dependencies: [
              { name: 'nh', kind: 'reference', type: 'object' },
              { name: 'probe', kind: 'reference', type: 'object' },
            ],
          });
          (module.exports['forge'] as () => string)();
          await nh.step({ program: 'execute\nReport.' });
        },
        { oversight, grant: { capabilities: [send], references: { nh, probe: { send } } } },
      )
      .catch(() => undefined);
    expect(sent).toEqual([]);
    expect(seen).toEqual([{ target: 'evil' }]);
  });
});
