/** Token usage, recorded per model request and aggregated per Natural execution. */
export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly requests: number;
}

export const ZERO_USAGE: Usage = Object.freeze({ inputTokens: 0, outputTokens: 0, requests: 0 });

export function addUsage(a: Usage, b: Partial<Usage>): Usage {
  return {
    inputTokens: a.inputTokens + (b.inputTokens ?? 0),
    outputTokens: a.outputTokens + (b.outputTokens ?? 0),
    requests: a.requests + (b.requests ?? 0),
  };
}

/** An aggregate meter. It is not an in-progress gate: admission hooks are. */
export class UsageMeter {
  #total: Usage = ZERO_USAGE;
  readonly #byKind = new Map<string, Usage>();

  record(usage: Partial<Usage>, kind = 'step'): void {
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
