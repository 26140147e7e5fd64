/**
 * Hooks: the imperative side of the loop (seed 004). `before_step` and `before_tool_call` subscribers are
 * gates: they may mutate the step, return `{ kind: 'skip', reason }`, or throw `HookAbort`. `after_step` and
 * `on_error` run after the fact; what they return is ignored. Hooks are synchronous, which keeps the loop
 * deterministic and its event order exact.
 */
import { describeError, isNighthawkError } from '../../core/index.js';
import type { HookAbort } from './errors.js';
import type { HookName, LoopStepOutcome } from './events.js';
import type { LoopStep } from './plan.js';

/** What a gate subscriber may return. Returning nothing means continue. */
export type GateDecision = void | undefined | { readonly kind: 'continue' } | { readonly kind: 'skip'; readonly reason: string };

export interface HookContexts {
  before_step: { readonly step: LoopStep; readonly cursor: number };
  before_tool_call: { readonly step: LoopStep; readonly cursor: number };
  after_step: { readonly step: LoopStep; readonly outcome: LoopStepOutcome };
  on_error: { readonly step: LoopStep; readonly error: string };
}

export type GateHookName = 'before_step' | 'before_tool_call';
export type AfterHookName = 'after_step' | 'on_error';

export type HookSubscriber<H extends HookName> = H extends GateHookName
  ? (context: HookContexts[H]) => GateDecision
  : (context: HookContexts[H]) => void;

/** Subscribers given at construction, fired in array order. */
export type HookSubscribers = { readonly [H in HookName]?: readonly HookSubscriber<H>[] };

/** The combined decision of a gate's subscribers. */
export type GateVerdict =
  | { readonly kind: 'continue' }
  | { readonly kind: 'skip'; readonly reason: string }
  | { readonly kind: 'abort'; readonly error: string };

const HOOK_NAMES: readonly HookName[] = ['before_step', 'before_tool_call', 'after_step', 'on_error'];

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** Cross-realm check: a HookAbort thrown from a notebook cell's realm still counts. */
function isHookAbort(error: unknown): error is HookAbort {
  return isNighthawkError(error) && error.kind === 'hook-abort' && typeof (error as HookAbort).reason === 'string';
}

function swallow(value: PromiseLike<unknown>): void {
  Promise.resolve(value).catch(() => undefined);
}

export class HookRegistry {
  readonly #subscribers = new Map<HookName, ((context: never) => unknown)[]>(HOOK_NAMES.map((name) => [name, []]));

  constructor(initial?: HookSubscribers) {
    for (const name of HOOK_NAMES) for (const fn of initial?.[name] ?? []) this.add(name, fn as HookSubscriber<typeof name>);
  }

  /** Adds a subscriber at the end of `hook`'s list; returns a function that removes it. */
  add<H extends HookName>(hook: H, subscriber: HookSubscriber<H>): () => void {
    const list = this.#subscribers.get(hook);
    if (list === undefined || typeof subscriber !== 'function') throw new TypeError(`Unknown hook '${String(hook)}' or non-function subscriber`);
    const entry = subscriber as (context: never) => unknown;
    list.push(entry);
    return () => {
      const at = list.indexOf(entry);
      if (at >= 0) list.splice(at, 1);
    };
  }

  /**
   * Fires a gate in order and stops at the first skip or abort. Fails closed: a subscriber that throws
   * anything but `HookAbort`, returns a promise, or returns something that is not a decision aborts the step
   * with `hook_error:<hook>:<detail>`.
   */
  fireGate<H extends GateHookName>(hook: H, context: HookContexts[H]): GateVerdict {
    for (const subscriber of [...(this.#subscribers.get(hook) ?? [])]) {
      let decision: unknown;
      try {
        decision = (subscriber as (context: HookContexts[H]) => unknown)(context);
      } catch (error) {
        if (isHookAbort(error)) return { kind: 'abort', error: `hook_abort:${error.reason}` };
        return { kind: 'abort', error: `hook_error:${hook}:${describeError(error)}` };
      }
      if (decision === undefined) continue;
      if (isThenable(decision)) {
        swallow(decision);
        return { kind: 'abort', error: `hook_error:${hook}:returned a promise; loop hooks are synchronous` };
      }
      const kind = (decision as { kind?: unknown }).kind;
      if (kind === 'continue') continue;
      const reason = (decision as { reason?: unknown }).reason;
      if (kind === 'skip' && typeof reason === 'string') return { kind: 'skip', reason };
      return { kind: 'abort', error: `hook_error:${hook}:returned an invalid decision` };
    }
    return { kind: 'continue' };
  }

  /** Fires an after-the-fact hook; every subscriber runs. Returns one description per subscriber that failed. */
  fireAfter<H extends AfterHookName>(hook: H, context: HookContexts[H]): string[] {
    const failures: string[] = [];
    for (const subscriber of [...(this.#subscribers.get(hook) ?? [])]) {
      try {
        const result = (subscriber as (context: HookContexts[H]) => unknown)(context);
        if (isThenable(result)) {
          swallow(result);
          failures.push('returned a promise; loop hooks are synchronous');
        }
      } catch (error) {
        failures.push(describeError(error));
      }
    }
    return failures;
  }
}
