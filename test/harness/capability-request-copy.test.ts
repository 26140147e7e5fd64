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
