/** A generated definition has a stable content identity. */
import { describe, expect, it } from 'vitest';
import { definitionIdOf, type CodeProposal } from '../../../kernel/src/harness/generated/index.js';

const p: CodeProposal = {
  language: 'typescript',
  intent: 'define',
  source: 'export function f() {\n  return 1;\n}\n',
  dependencies: [
    { name: 'a', kind: 'reference', type: 'number' },
    { name: 'b', kind: 'capability', type: '() => void' },
  ],
};

describe('definitionIdOf', () => {
  it('is a sha256 identity, equal for equal definitions', () => {
    expect(definitionIdOf(p)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(definitionIdOf({ ...p })).toBe(definitionIdOf(p));
  });

  it('ignores line endings, trailing whitespace, dependency order and type formatting', () => {
    const variant: CodeProposal = {
      ...p,
      source: 'export function f() {  \r\n  return 1;\r\n}\r\n\r\n',
      dependencies: [
        { name: 'b', kind: 'capability', type: '()=>void' },
        { name: 'a', kind: 'reference', type: 'number' },
      ],
    };
    expect(definitionIdOf(variant)).toBe(definitionIdOf(p));
  });

  it('changes with the source, the intent, the language or a dependency declaration', () => {
    const id = definitionIdOf(p);
    expect(definitionIdOf({ ...p, source: p.source.replace('1', '2') })).not.toBe(id);
    expect(definitionIdOf({ ...p, intent: 'define-and-invoke' })).not.toBe(id);
    expect(definitionIdOf({ ...p, language: 'javascript' })).not.toBe(id);
    expect(definitionIdOf({ ...p, dependencies: [{ name: 'a', kind: 'reference', type: 'string' }, p.dependencies![1]!] })).not.toBe(id);
  });

  it('does not depend on invocation arguments or the entry', () => {
    const one: CodeProposal = { ...p, intent: 'define-and-invoke', entry: 'f', args: [1] };
    const two: CodeProposal = { ...p, intent: 'define-and-invoke', entry: 'g', args: [2] };
    expect(definitionIdOf(one)).toBe(definitionIdOf(two));
  });
});
