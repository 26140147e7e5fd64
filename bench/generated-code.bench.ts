/**
 * Cost of validating and compiling generated code, and of the guards on every call.
 * Baselines in the same run: a plain transpile of the same source, and the same module evaluated
 * without guards.
 */
import ts from 'typescript';
import { compileGenerated, type CodeProposal } from '../kernel/src/harness/generated/index.js';
import { report, sample } from './stats.js';

const source = `
const square = (x: number) => x * x;
function clamp(x: number, lo = 0, hi = 1000) { return Math.min(hi, Math.max(lo, x)); }
export function score(xs: number[]) {
  let total = 0;
  for (const x of xs) {
    try { total += clamp(square(x)); } finally { total += 0; }
  }
  return total;
}
export async function later(xs: number[]) { await null; return score(xs); }
export const limits = { lo: 0, hi: 1000 };
`;
const proposal: CodeProposal = { language: 'typescript', intent: 'define', source };
const options = { onAnomaly: () => {}, isLive: () => true, dependencies: {} };
const transpile = () =>
  ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 }, fileName: 'g.ts' }).outputText;

report('generated_compile', await sample(200, () => compileGenerated(proposal, options)), await sample(200, transpile));

const guarded = compileGenerated(proposal, options).exports.score as (xs: number[]) => number;
const plainExports: Record<string, unknown> = {};
new Function('exports', transpile())(plainExports);
const plain = plainExports.score as (xs: number[]) => number;
const xs = Array.from({ length: 1000 }, (_, i) => i % 50);
if (guarded(xs) !== plain(xs)) throw new Error('guarded and plain modules disagree');
report('generated_guarded_call_1000_items', await sample(2000, () => guarded(xs)), await sample(2000, () => plain(xs)));
