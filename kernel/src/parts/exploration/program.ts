/**
 * The exploration's one Natural block. The program text is a fixed repository asset: the task, the
 * earlier findings and the earlier source reach the model only as read bindings (untrusted data).
 */
import { z } from 'zod';
import { codeProposalSchema, type CodeProposal } from '../../harness/index.js';

export const PROPOSE_PROGRAM = `execute
Write source code for the task described in <task>. The source must export a function named <export_name>.
<previous_findings> holds the acceptance findings of the earlier attempts, oldest first (empty on the first attempt), and <previous_source> is the source of the latest attempt. Address every finding that did not pass.
The source may use only the dependencies listed in <available_dependencies>; declare each one it uses, copying its name, kind and type.
Do not run the source. Assign the proposal to <:proposal> as an object { language: "typescript" or "javascript", intent: "define", source, dependencies }.`;

/**
 * A CodeProposal limited to definition-only: the acceptance checks, not the model, decide how the
 * exports are called.
 */
export const explorationProposalSchema = codeProposalSchema.extend({ intent: z.literal('define') }) as unknown as z.ZodType<CodeProposal>;
