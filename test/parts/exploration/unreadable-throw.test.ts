/**
 * Attack: a proposal's export throws a value whose reading runs its own code (a `toString`, or a `name`/`message`
 * getter on an Error). The exploration turns what a check threw into a failed finding, and reading that value called
 * the generated code again outside its dispatch node: the host refused that call, and the refusal escaped `explore`,
 * so one proposal ended the whole exploration (no further attempts) instead of being assessed as failed. What a
 * check threw is read as data, or not at all: the attempt fails with a finding and the next attempt runs.
 */
import { describe, expect, it } from 'vitest';
import { AgentExecutor, Runner, explore, type AcceptanceCheck, type CodeProposal, type ModelMessage } from '../../../kernel/src/index.js';
import { ScriptedModel, toolCall, type ScriptedTurn } from '../../../kernel/src/testing.js';

const finish = () => toolCall('nh_output', { result: { kind: 'pass' } });
const propose = (source: string): ScriptedTurn => (_messages: readonly ModelMessage[]) => {
  const proposal: CodeProposal = { language: 'javascript', intent: 'define', source, dependencies: [] };
  return { toolCalls: [toolCall('nh_assign', { target_path: 'proposal', expression: JSON.stringify(proposal) }), finish()] };
};

const callsIt: AcceptanceCheck = (exports) => {
  const value = (exports.f as () => number)();
  return [{ check: 'f() is 1', passed: value === 1 }];
};

describe('parts/exploration: a thrown value that runs code when read', () => {
  for (const [label, thrown] of [
    ['an object with its own toString', `throw { toString() { return 'planted'; } };`],
    ['an Error with a message getter', `const e = new Error('x'); Object.defineProperty(e, 'message', { get() { return 'planted'; } }); throw e;`],
  ] as const) {
    it(`${label}: the attempt fails with a finding and the next attempt runs`, async () => {
      const model = new ScriptedModel([propose(`export function f() { ${thrown} }`), propose('export function f() { return 1; }')]);
      const runner = new Runner({ executor: new AgentExecutor({ model, maxRequestsPerStep: 10 }) });
      const result = await runner.run((ctx) => explore(ctx, { task: 'Return 1.', exportName: 'f', checks: [callsIt], maxAttempts: 2 }), { grant: { capabilities: [] } });
      expect(result.kind).toBe('candidate');
      if (result.kind !== 'candidate') return;
      expect(result.evidence.attempts.map((a) => a.passed)).toEqual([false, true]);
      const finding = result.evidence.attempts[0]!.findings[0]!;
      expect(finding.passed).toBe(false);
      expect(finding.detail ?? '').not.toContain('planted');
    });
  }
});
