import { describe, expect, it } from 'vitest';
import { attenuate, authorityFromGrant } from '../../kernel/src/harness/grant.js';
import { intersectPolicies, outsidePolicy, perimeterPolicy } from '../../kernel/src/harness/perimeter.js';
import { trackedCapability } from './support.js';

// Policies and grants are computed while interior code may have replaced built-ins (a scope narrowed around
// generated code, a capability it calls). Each replacement below would widen something if it were asked.
function polluted<T>(fn: () => T): T {
  const real = { add: Set.prototype.add, has: Set.prototype.has, filter: Array.prototype.filter, includes: Array.prototype.includes, map: Array.prototype.map, set: Map.prototype.set, keys: Object.keys };
  Set.prototype.add = function (this: Set<unknown>, v: unknown) {
    real.add.call(this, 'egress');
    real.add.call(this, 'durable_write_back');
    return real.add.call(this, v);
  };
  Set.prototype.has = () => true;
  Map.prototype.set = function (this: Map<unknown, unknown>) {
    return this;
  };
  Array.prototype.filter = function () {
    return [];
  } as typeof Array.prototype.filter;
  Array.prototype.includes = () => true;
  Object.keys = () => [];
  try {
    return fn();
  } finally {
    Object.assign(Set.prototype, { add: real.add, has: real.has });
    Object.assign(Array.prototype, { filter: real.filter, includes: real.includes, map: real.map });
    Map.prototype.set = real.set;
    Object.keys = real.keys;
  }
}

describe('policy and grant decisions with replaced built-ins', () => {
  it('a policy holds exactly its classes, an intersection narrows, a footprint outside is reported', () => {
    const { none, narrowed, outside } = polluted(() => ({
      none: perimeterPolicy([]),
      narrowed: intersectPolicies(perimeterPolicy(['egress', 'durable_write_back']), perimeterPolicy(['egress'])),
      outside: outsidePolicy(['egress'], perimeterPolicy([])),
    }));
    expect([...none]).toEqual([]);
    expect([...narrowed]).toEqual(['egress']);
    expect(outside).toEqual(['egress']);
  });

  it('attenuation refuses a capability the parent lacks and keeps only the named ones', () => {
    const { capability: send } = trackedCapability('send', ['egress']);
    const { capability: read } = trackedCapability('read');
    const parent = authorityFromGrant({ capabilities: [send, read], references: { dir: '/tmp' } }, perimeterPolicy([]));
    const refused = (request: Parameters<typeof attenuate>[1]) => {
      try {
        polluted(() => attenuate(parent, request));
      } catch (error) {
        return { name: (error as Error).name, ...(error as { capabilities: string[]; perimeterClasses: string[] }) };
      }
      return undefined;
    };
    expect(refused({ capabilities: ['send', 'delete_everything'] })).toMatchObject({ name: 'GrantWideningError', capabilities: ['delete_everything'] });
    expect(refused({ policy: ['egress'] })).toMatchObject({ name: 'GrantWideningError', perimeterClasses: ['egress'] });
    expect(refused({ references: ['toString'] })).toMatchObject({ name: 'GrantWideningError', capabilities: ['reference:toString'] });
    const child = polluted(() => attenuate(parent, { capabilities: ['read'], references: ['dir'] }));
    expect([...child.capabilities.keys()]).toEqual(['read']);
    expect(child.references).toEqual({ dir: '/tmp' });
    expect([...child.policy]).toEqual([]);
  });
});
