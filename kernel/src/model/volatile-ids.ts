/**
 * Runtime ids (`op_…`, `exe_…`) differ between a recorded run and its replay, yet they reach the
 * model in tool results. Replay compares requests with each distinct id replaced by its order of
 * first appearance, and learns which live id stands for which recorded one, so ids the recorded
 * model quoted back (e.g. `raise_operation_id`) can be translated to the live run.
 */

/** Prefixed, ULID-shaped ids as `newId()` in core produces them. */
export const DEFAULT_VOLATILE_ID = /\b[a-z]{1,8}_[0-9A-HJKMNP-TV-Z]{26}\b/g;

/** Replaces each distinct match with `<id:N>`, N counting first appearances; returns the ids in that order. */
export function maskIds(text: string, pattern: RegExp | undefined): { masked: string; ids: string[] } {
  if (!pattern) return { masked: text, ids: [] };
  const ids: string[] = [];
  const masked = text.replace(globalCopy(pattern), (id) => {
    let n = ids.indexOf(id);
    if (n < 0) n = ids.push(id) - 1;
    return `<id:${n}>`;
  });
  return { masked, ids };
}

/** Recorded id → live id, kept for a whole replay. */
export class IdTranslation {
  readonly #toLive = new Map<string, string>();
  readonly #toRecorded = new Map<string, string>();

  /**
   * Pairs ids seen at the same positions. Returns a description of the first conflict (one recorded
   * id standing for two live ids, or the reverse), or undefined when consistent.
   */
  learn(recorded: readonly string[], live: readonly string[]): string | undefined {
    for (let i = 0; i < Math.min(recorded.length, live.length); i++) {
      const r = recorded[i]!;
      const l = live[i]!;
      const knownLive = this.#toLive.get(r);
      const knownRecorded = this.#toRecorded.get(l);
      if ((knownLive !== undefined && knownLive !== l) || (knownRecorded !== undefined && knownRecorded !== r)) {
        return `id ${l} stands for ${knownRecorded ?? r} here but recorded ${r} was ${knownLive ?? 'another id'} earlier`;
      }
      this.#toLive.set(r, l);
      this.#toRecorded.set(l, r);
    }
    return undefined;
  }

  /** Rewrites recorded ids in `text` to their live counterparts; unknown ids are left as recorded. */
  toLive(text: string, pattern: RegExp | undefined): string {
    if (!pattern || this.#toLive.size === 0) return text;
    return text.replace(globalCopy(pattern), (id) => this.#toLive.get(id) ?? id);
  }
}

function globalCopy(pattern: RegExp): RegExp {
  return new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : pattern.flags + 'g');
}
