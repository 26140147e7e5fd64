/**
 * The `execute_code` capability: the second typed route by which generated source reaches the one
 * host-owned dispatch (the first is a CodeProposal committed through a write binding).
 */
import { defineCapability, type Capability } from './capability.js';
import { currentDispatcher } from './dispatch.js';
import { codeProposalSchema, type CodeProposal } from './generated/index.js';

/** A capability whose typed request is a CodeProposal; its result is the entry's value (define-and-invoke) or the export names. */
export function executeCodeCapability(): Capability<CodeProposal, unknown> {
  return defineCapability({
    name: 'execute_code',
    description: 'Dispatch generated TypeScript or JavaScript source: intent "define" materializes its exports; "define-and-invoke" also calls the synchronous entry export with args.',
    request: codeProposalSchema as never,
    signature: '(proposal: CodeProposal) => unknown',
    run: async (proposal) => {
      const outcome = await currentDispatcher().dispatch(proposal);
      return outcome.invocation ? { value: outcome.invocation.value, definitionId: outcome.definitionId } : { exports: Object.keys(outcome.exports), definitionId: outcome.definitionId };
    },
  });
}
