/**
 * The inert value through which model-written source reaches dispatch. It is data only: nothing in it
 * runs until dispatch validates it and compiles it under guards.
 */
import { z } from 'zod';

export const CodeLanguage = { typescript: 'typescript', javascript: 'javascript' } as const;
export type CodeLanguage = (typeof CodeLanguage)[keyof typeof CodeLanguage];

/** The closed intent set of seed 001: materialise only, or materialise and invoke a sync entry. */
export const DispatchIntent = { define: 'define', defineAndInvoke: 'define-and-invoke' } as const;
export type DispatchIntent = (typeof DispatchIntent)[keyof typeof DispatchIntent];

export const DependencyKind = { capability: 'capability', reference: 'reference' } as const;
export type DependencyKind = (typeof DependencyKind)[keyof typeof DependencyKind];

export const dependencyDeclarationSchema = z.object({
  name: z.string().min(1),
  kind: z.enum(['capability', 'reference']),
  /** Capability signature or reference type text the source was written against. */
  type: z.string().min(1),
});
export type DependencyDeclaration = z.infer<typeof dependencyDeclarationSchema>;

export const codeProposalSchema = z.object({
  language: z.enum(['typescript', 'javascript']),
  source: z.string(),
  intent: z.enum(['define', 'define-and-invoke']),
  /** Export to invoke under the define-and-invoke intent. */
  entry: z.string().min(1).optional(),
  args: z.array(z.unknown()).optional(),
  dependencies: z.array(dependencyDeclarationSchema).optional(),
});

export interface CodeProposal {
  readonly language: CodeLanguage;
  readonly source: string;
  readonly intent: DispatchIntent;
  readonly entry?: string;
  readonly args?: readonly unknown[];
  readonly dependencies?: readonly DependencyDeclaration[];
}

/**
 * A deep-frozen copy: the definition a dispatch compiled or a RetainedFunction keeps cannot be changed afterwards
 * through a reference to its dependency list (which would change what the next materialization dispatches).
 * Only the declared fields are copied; `args` values stay as given (they are inputs, not the definition).
 */
export function frozenProposal(proposal: CodeProposal): CodeProposal {
  const dependencies = proposal.dependencies?.map((d) => Object.freeze({ name: d.name, kind: d.kind, type: d.type }));
  return Object.freeze({
    language: proposal.language,
    source: proposal.source,
    intent: proposal.intent,
    ...(proposal.entry !== undefined ? { entry: proposal.entry } : {}),
    ...(proposal.args !== undefined ? { args: Object.freeze([...proposal.args]) } : {}),
    ...(dependencies !== undefined ? { dependencies: Object.freeze(dependencies) } : {}),
  });
}

/** Parses an untrusted value (for example a committed write binding) into a CodeProposal. */
export function parseCodeProposal(value: unknown): { ok: true; proposal: CodeProposal } | { ok: false; issues: string[] } {
  const parsed = codeProposalSchema.safeParse(value);
  if (parsed.success) return { ok: true, proposal: parsed.data };
  return {
    ok: false,
    issues: parsed.error.issues.map((i) => `${i.path.length ? i.path.map(String).join('.') + ': ' : ''}${i.message}`),
  };
}
