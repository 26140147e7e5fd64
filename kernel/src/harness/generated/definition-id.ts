/**
 * Content identity of a generated definition: the same normalised source, intent, language and
 * dependency declarations always give the same id. The run-local materialisation id is dispatch's.
 */
import { sha256Of } from '../intrinsics.js';
import type { CodeProposal } from './code-proposal.js';
import { normalizeTypeText } from './dependencies.js';

/** Line endings and trailing whitespace do not change what a definition means. */
export function normalizeSource(source: string): string {
  return source
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/, ''))
    .join('\n')
    .replace(/\n+$/, '');
}

export function definitionIdOf(proposal: Pick<CodeProposal, 'language' | 'source' | 'intent' | 'dependencies'>): string {
  const dependencies = [...(proposal.dependencies ?? [])]
    .map((d) => ({ name: d.name, kind: d.kind, type: normalizeTypeText(d.type) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const payload = JSON.stringify({
    v: 1,
    language: proposal.language,
    intent: proposal.intent,
    source: normalizeSource(proposal.source),
    dependencies,
  });
  return `sha256:${sha256Of(payload)}`;
}
