/** Shared helpers for benchmarks: percentiles and the one-line BENCH format scripts can read. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

function fmt(n: number): string {
  return n >= 100 ? n.toFixed(1) : n >= 1 ? n.toFixed(3) : n.toPrecision(3);
}

/** Prints `BENCH <name> p50_ms=… p99_ms=… [baseline_p50_ms=… ratio=…]` for samples in milliseconds. */
export function report(name: string, samples: readonly number[], baseline?: readonly number[]): void {
  const p50 = percentile(samples, 50);
  const p99 = percentile(samples, 99);
  let line = `BENCH ${name} p50_ms=${fmt(p50)} p99_ms=${fmt(p99)}`;
  if (baseline && baseline.length) {
    const b50 = percentile(baseline, 50);
    line += ` baseline_p50_ms=${fmt(b50)} ratio=${(p50 / b50).toFixed(3)}`;
  }
  console.log(line);
}

/** Times `fn` `n` times after `warmup` runs; returns per-call milliseconds. */
export async function sample(n: number, fn: () => unknown | Promise<unknown>, warmup = Math.min(50, n)): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}
