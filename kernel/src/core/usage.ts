import { UsageError } from './errors.js';

/** Token usage, recorded per model request and aggregated per Natural execution. */
export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly requests: number;
}

export const ZERO_USAGE: Usage = Object.freeze({ inputTokens: 0, outputTokens: 0, requests: 0 });

/** Whether `value` is a count usage may add: a finite, non-negative number (usage only grows). */
function isCount(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && value < Infinity;
}

/** A reported count as usage adds it: anything but a finite, non-negative number counts as none. */
export function usageCount(value: unknown): number {
  return isCount(value) ? value : 0;
}

const USAGE_KEYS = ['inputTokens', 'outputTokens', 'requests'] as const;

export function addUsage(a: Usage, b: Partial<Usage>): Usage {
  // Whoever reports usage may be wrong or hostile: a negative or NaN count would lower (or stop) the accounting.
  return {
    inputTokens: a.inputTokens + usageCount(b.inputTokens),
    outputTokens: a.outputTokens + usageCount(b.outputTokens),
    requests: a.requests + usageCount(b.requests),
  };
}

/** An aggregate meter. It is not an in-progress gate: admission hooks are. */
export class UsageMeter {
  #total: Usage = ZERO_USAGE;
  readonly #byKind = new Map<string, Usage>();
  readonly #guard: (() => void) | undefined;

  /** `guard` runs before every record and throws to refuse it: a host's meter refuses writes from model code. */
  constructor(options?: { readonly guard?: () => void }) {
    this.#guard = options?.guard;
  }

  record(usage: Partial<Usage>, kind = 'step'): void {
    this.#guard?.();
    for (const key of USAGE_KEYS) {
      const value = usage?.[key];
      if (value !== undefined && !isCount(value)) {
        throw new UsageError(`UsageMeter.record: ${key} must be a finite, non-negative number (got ${String(value)}); usage only grows.`);
      }
    }
    this.#total = addUsage(this.#total, usage);
    this.#byKind.set(kind, addUsage(this.#byKind.get(kind) ?? ZERO_USAGE, usage));
  }

  get total(): Usage {
    return this.#total;
  }

  get totalTokens(): number {
    return this.#total.inputTokens + this.#total.outputTokens;
  }

  byKind(kind: string): Usage {
    return this.#byKind.get(kind) ?? ZERO_USAGE;
  }

  snapshot(): { total: Usage; byKind: Record<string, Usage> } {
    return { total: this.#total, byKind: Object.fromEntries(this.#byKind) };
  }
}
Object.freeze(UsageMeter.prototype); // shared by every run in the process: model code replaces no method
