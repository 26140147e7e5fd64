/** Issue 19.2: kernel completions carry their TypeScript kinds (Jupyter's _jupyter_types_experimental). */
import { describe, expect, test } from 'vitest';
import { kernelSuite } from '../support/kernel-suite.js';
import { runCell } from '../support/kernel-client.js';

const suite = kernelSuite();

type Typed = Array<{ text: string; type: string }>;
const typesOf = (reply: { content: unknown }): Typed => (reply.content as { metadata: { _jupyter_types_experimental: Typed } }).metadata._jupyter_types_experimental;

describe('complete_reply kinds', () => {
  test('functions, constants, variables, classes and properties are told apart', async () => {
    await runCell(suite.kernel, 'function compute() { return 1 }\nconst LIMIT = 3;\nlet counter = 0;\nclass Cart { items: string[] = []; total() { return 0 } }\nconst cart = new Cart();');
    const top = await suite.kernel.requestComplete({ code: 'co', cursor_pos: 2 });
    const types = new Map(typesOf(top).map((t) => [t.text, t.type]));
    expect(types.get('compute')).toBe('function');
    expect(types.get('counter')).toBe('let');
    expect(types.get('const')).toBe('keyword');
    const members = await suite.kernel.requestComplete({ code: 'cart.', cursor_pos: 5 });
    const memberTypes = new Map(typesOf(members).map((t) => [t.text, t.type]));
    expect(memberTypes.get('items')).toBe('property');
    expect(memberTypes.get('total')).toBe('method');
    const upper = await suite.kernel.requestComplete({ code: 'LIM', cursor_pos: 3 });
    expect(typesOf(upper).find((t) => t.text === 'LIMIT')?.type).toBe('const');
    const cls = await suite.kernel.requestComplete({ code: 'Ca', cursor_pos: 2 });
    expect(typesOf(cls).find((t) => t.text === 'Cart')?.type).toBe('class');
  });
});
