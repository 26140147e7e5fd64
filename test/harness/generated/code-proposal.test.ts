/** Model output reaches dispatch only as a typed CodeProposal value. */
import { describe, expect, it } from 'vitest';
import { codeProposalSchema, parseCodeProposal } from '../../../kernel/src/harness/generated/index.js';

describe('CodeProposal', () => {
  it('a well-formed value parses into a proposal', () => {
    const value = { language: 'javascript', source: 'export const x = 1;', intent: 'define', dependencies: [{ name: 'n', kind: 'reference', type: 'number' }] };
    expect(parseCodeProposal(value)).toEqual({ ok: true, proposal: value });
  });

  it('an unknown intent, language or dependency kind is refused with issues', () => {
    const result = parseCodeProposal({ language: 'python', source: 'x', intent: 'run', dependencies: [{ name: 'n', kind: 'grant', type: 'x' }] });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((i) => i.split(':')[0])).toEqual(['language', 'intent', 'dependencies.0.kind']);
  });

  it('untyped text is not a proposal', () => {
    expect(codeProposalSchema.safeParse('export const x = 1;').success).toBe(false);
  });
});
