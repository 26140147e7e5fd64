/**
 * Host context on AsyncLocalStorage: which run host (if any) owns the current interior execution,
 * the authority in force, and whether a gateway allowance is active. Allowances carry an `active`
 * flag that is cleared on return, failure or cancellation, so contexts copied into timers or tasks
 * during the gateway call lose the allowance when it ends.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Authority } from './grant.js';

export interface GatewayAllowance {
  readonly holder: string;
  active: boolean;
}

export interface HostFrame {
  readonly host: HostHandle;
  readonly authority: Authority;
  readonly allowance: GatewayAllowance | undefined;
  /** The dispatch node or execution that submitted the current interior work. */
  readonly submitterId: string;
  readonly depth: number;
}

/** What the effect audit and gateways need from a run host. */
export interface HostHandle {
  readonly runId: string;
  recordAnomaly(anomalyKind: string, detail: Record<string, unknown>, parentId?: string): void;
}

const frames = new AsyncLocalStorage<HostFrame>();

export function currentHostFrame(): HostFrame | undefined {
  return frames.getStore();
}

export function runInFrame<T>(frame: HostFrame, fn: () => T): T {
  return frames.run(frame, fn);
}

/** Runs `fn` as host infrastructure under a gateway allowance that expires when it settles. */
export async function withAllowance<T>(holder: string, fn: () => T | Promise<T>): Promise<T> {
  const frame = frames.getStore();
  if (!frame) return await fn();
  const allowance: GatewayAllowance = { holder, active: true };
  try {
    return await frames.run({ ...frame, allowance }, fn);
  } finally {
    allowance.active = false;
  }
}

/** Runs `fn` with no gateway allowance (every Natural execution starts this way). */
export function withoutAllowance<T>(fn: () => T): T {
  const frame = frames.getStore();
  if (!frame || !frame.allowance) return fn();
  return frames.run({ ...frame, allowance: undefined }, fn);
}

/** True when interior code is running under an active host and no live allowance. */
export function interiorWithoutAllowance(): HostFrame | undefined {
  const frame = frames.getStore();
  if (!frame) return undefined;
  if (frame.allowance?.active) return undefined;
  return frame;
}
