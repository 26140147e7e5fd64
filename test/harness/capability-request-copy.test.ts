/**
 * A request generated code hands a capability reaches the capability body (operator code) as plain data copied
 * under the caller's mark. Passed as built, a getter or proxy trap the model wrote ran inside that body as host
 * code with no interior mark, where the run-time tier does not apply: `Math.max.constructor` gave it the real
 * Function constructor (red team A, "not fixed" list). Not plain data (a function, a proxy) is refused.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCapability } from '../../kernel/src/index.js';
import { callingGenerated, scriptedRunner } from './support.js';

const G = globalThis as Record<string, unknown>;
afterEach(() => {
  delete G['__nhCapEscaped'];
});

function lookup(seen: unknown[]) {
  return defineCapability({
    name: 'lookup',
    description: 'reads a record',
    footprint: [],
    request: z.object({ data: z.unknown() }),
    run: (request: { data: unknown }) => {
      const data = request.data as Record<string, unknown>;
      seen.push(data['x']);
      return 'ok';
    },
  });
}

describe('a capability request built by generated code', () => {
  it('reaches the body as plain data: a getter ran under the caller mark, never in the body', async () => {
    const seen: unknown[] = [];
    const capability = lookup(seen);
    const { runner } = scriptedRunner([]);
    const source = `export async function run() {
      const k = 'constr' + 'uctor';
      return lookup({ data: { get x() { try { Math.max[k]('return 1')(); globalThis.__nhCapEscaped = true; } catch {} return 7; } } });
    }`;
    const outcome = await runner.run(callingGenerated(source, capability), { grant: { capabilities: [capability] } }).then((v) => v, (e: unknown) => e);
    expect(outcome).toBe('ok');
    expect(seen).toEqual([7]);
    expect(G['__nhCapEscaped']).toBeUndefined();
  });

  it("may hold operator data the code was handed (seen through the membrane): the body gets a copy of the operator's data", async () => {
    const seen: unknown[] = [];
    const capability = lookup(seen);
    const { runner } = scriptedRunner([]);
    const record = { x: 5, tags: ['a'], when: new Date(0) };
    const source = `export async function run() { return [await lookup({ data: record }), await lookup({ data: { x: record.tags } })]; }`;
    const composition: Parameters<typeof runner.run>[0] = async (ctx) => {
      const m = await ctx.dispatch({
        language: 'javascript',
        intent: 'define',
        source,
        dependencies: [
          { name: 'lookup', kind: 'capability', type: capability.signature },
          { name: 'record', kind: 'reference', type: 'object' },
        ],
      });
      return await (m.exports['run'] as () => Promise<unknown>)();
    };
    const outcome = await runner.run(composition, { grant: { capabilities: [capability], references: { record } } }).then((v) => v, (e: unknown) => e);
    expect(outcome).toEqual(['ok', 'ok']);
    expect(seen).toEqual([5, ['a']]);
    expect(seen[1]).not.toBe(record.tags);
    expect(runner.ledger.select({ kind: 'capability.refused' })).toEqual([]);
  });

  it('is refused when it is not plain data (a proxy), recorded as an invalid request', async () => {
    const seen: unknown[] = [];
    const capability = lookup(seen);
    const { runner } = scriptedRunner([]);
    const source = `export async function run() { return lookup({ data: new Proxy({ x: 1 }, {}) }); }`;
    const outcome = await runner.run(callingGenerated(source, capability), { grant: { capabilities: [capability] } }).then((v) => v, (e: unknown) => e);
    expect(outcome).toBeInstanceOf(Error);
    expect(seen).toEqual([]);
    expect(runner.ledger.select({ kind: 'capability.refused' }).map((e) => e.status)).toEqual(['invalid-request']);
  });
});
