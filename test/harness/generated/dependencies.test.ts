/** Dependencies are declared by name and type; mismatches are typed rejections listing each difference. */
import { describe, expect, it } from 'vitest';
import { checkDependencies, DependencyMismatchError, normalizeTypeText } from '../../../kernel/src/harness/generated/index.js';

describe('checkDependencies', () => {
  it('a grant matching every declaration by kind and type is accepted', () => {
    expect(
      checkDependencies(
        [{ name: 'search', kind: 'capability', type: '(q: string) => Promise<string[]>' }],
        { search: { kind: 'capability', type: '(q:string)=>Promise<string[]>' }, extra: { kind: 'reference', type: 'number' } },
      ),
    ).toEqual({ ok: true });
  });

  it('lists missing, kind-differs and type-differs mismatches', () => {
    const result = checkDependencies(
      [
        { name: 'search', kind: 'capability', type: '(q: string) => string[]' },
        { name: 'config', kind: 'reference', type: '{ depth: number }' },
        { name: 'store', kind: 'capability', type: '() => void' },
      ],
      { search: { kind: 'capability', type: '(q: string, n: number) => string[]' }, config: { kind: 'capability', type: '{ depth: number }' } },
    );
    expect(result).toEqual({
      ok: false,
      mismatches: [
        { kind: 'type-differs', name: 'search', declared: '(q: string) => string[]', granted: '(q: string, n: number) => string[]' },
        { kind: 'kind-differs', name: 'config', declared: 'reference', granted: 'capability' },
        { kind: 'missing', name: 'store', declared: { name: 'store', kind: 'capability', type: '() => void' } },
      ],
    });
  });

  it('a grant entry inherited from the prototype does not count', () => {
    const result = checkDependencies([{ name: 'toString', kind: 'reference', type: 'string' }], {});
    expect(result.ok).toBe(false);
  });

  it('type text is compared after canonical printing, so formatting does not matter but types do', () => {
    expect(normalizeTypeText('{ a: number;   b: string }')).toBe(normalizeTypeText('{a:number,b:string}'));
    expect(normalizeTypeText('Array<number>')).not.toBe(normalizeTypeText('Array<string>'));
  });

  it('the rejection error names every mismatch in its message and fields', () => {
    const check = checkDependencies([{ name: 'x', kind: 'reference', type: 'number' }], { x: { kind: 'reference', type: 'string' } });
    if (check.ok) throw new Error('expected a mismatch');
    const error = new DependencyMismatchError({ mismatches: check.mismatches });
    expect(error.kind).toBe('dependency-mismatch');
    expect(error.mismatches).toHaveLength(1);
    expect(error.message).toContain("'x' is declared as type number but granted as string");
  });
});
