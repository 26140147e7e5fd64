/**
 * Writes the engine refuses without a word. Where strict code's assignment, `Object.defineProperty`, `delete` or
 * `Object.setPrototypeOf` throws on a frozen, sealed or read-only target, `Reflect.set`, `Reflect.defineProperty`,
 * `Reflect.deleteProperty` and `Reflect.setPrototypeOf` answer `false`: no catch block or function exit of model code
 * ever sees that refusal, so the guards that record the thrown ones (frozen-write-sight.ts) cannot. While interior
 * code runs, each `false` these answer is recorded as `frozen_value_write` (`seenAt: 'reflect-result'`) under the
 * operation or dispatch node, however the function was reached (an alias, `Reflect.apply`, a callback argument).
 * Host code gets the same answers and records nothing.
 *
 * Each is replaced by a proxy of the built-in, so its name, length, source text (`[native code]`), answers and lack
 * of a constructor stay the built-in's, and the late-callback rule still drops it as code no guard sees.
 */
import { claimReflectWriteAnswer } from '../core/index.js';
import { activeInterior } from './raw-dynamic-runtime.js';
import { recordInteriorFrozenWrite } from './frozen-write-record.js';
import { anomalyRecorder } from './host-context.js';
import { reflectApply, stringSlice, StringCtor } from './intrinsics.js';

type SilentWrite = 'set' | 'defineProperty' | 'deleteProperty' | 'setPrototypeOf';

const KEY_SHOWN = 80;

/** The key as the record shows it, read without running model code: a key object's `toString` is not called again. */
function shownKey(key: unknown): string {
  if (typeof key === 'string') return key.length > KEY_SHOWN ? `'${stringSlice(key, 0, KEY_SHOWN)}…'` : `'${key}'`;
  if (typeof key === 'symbol' || typeof key === 'number') return StringCtor(key);
  return 'a computed key';
}

function refusalMessage(name: SilentWrite, key: unknown): string {
  switch (name) {
    case 'set':
      return `Reflect.set refused to set ${shownKey(key)}: it is read-only, or its object is not extensible`;
    case 'defineProperty':
      return `Reflect.defineProperty refused to define ${shownKey(key)}: it is not configurable, or its object is not extensible`;
    case 'deleteProperty':
      return `Reflect.deleteProperty refused to delete ${shownKey(key)}: it is not configurable`;
    case 'setPrototypeOf':
      return 'Reflect.setPrototypeOf refused to set the prototype: the object is not extensible, or its prototype is fixed';
  }
}

function noteRefusal(name: SilentWrite, args: readonly unknown[]): void {
  const mark = activeInterior();
  if (!mark) return;
  try {
    recordInteriorFrozenWrite(anomalyRecorder(), mark, refusalMessage(name, args[1]), 'reflect-result');
  } catch {
    /* the caller gets its answer either way */
  }
}

// Claimed as this module loads (before any model code runs): a `Reflect` write answered `false` through a membrane is
// recorded here, so nothing else may have a membrane answer so.
const answeringReflectWrite = claimReflectWriteAnswer() ?? ((write: Function, self: unknown, args: readonly unknown[]): unknown => reflectApply(write, self, args));

let installed = false;

/** Installs the recording `Reflect` methods once, before the built-ins are recorded (realm-integrity.ts). */
export function installSilentRefusals(): void {
  if (installed) return;
  installed = true;
  for (const name of ['set', 'defineProperty', 'deleteProperty', 'setPrototypeOf'] as const) {
    const original = Reflect[name] as (...args: unknown[]) => boolean;
    const handler: ProxyHandler<typeof original> = {
      apply(_target, self, args: unknown[]) {
        // On a membrane (core/model-facing.ts) the refusal is answered `false` here too, as on the operator's own object.
        const done = answeringReflectWrite(original, self, args);
        if (done === false) noteRefusal(name, args);
        return done;
      },
    };
    Object.defineProperty(Reflect, name, { value: new Proxy(original, Object.freeze(handler)), writable: true, enumerable: false, configurable: true });
  }
}
