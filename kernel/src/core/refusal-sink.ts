/**
 * Where the core reports an attempt it refused to model code (a `trace.anomaly` in a host run). The harness installs
 * the sink when it first runs; the first installation wins, so nothing a run reaches can replace it.
 */
/** `parentId`: what the anomaly is recorded under, when the core knows (an operation); else the sink decides. */
export type RefusalSink = (anomalyKind: string, detail: Readonly<Record<string, unknown>>, parentId?: string) => void;

let sink: RefusalSink | undefined;

export function setRefusalSink(value: RefusalSink): void {
  sink ??= value;
}

/** Reports a refusal; a sink that throws changes nothing (the refusal itself is the outcome). */
export function reportRefusal(anomalyKind: string, detail: Readonly<Record<string, unknown>>, parentId?: string): void {
  try {
    sink?.(anomalyKind, detail, parentId);
  } catch {
    /* the caller throws its refusal next */
  }
}
