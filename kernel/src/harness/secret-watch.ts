/**
 * A model reading a registered secret is a trace anomaly (issue 13, item 5). The provider key in the
 * environment is registered at installation, and reads of `process.env` entries holding a registered
 * secret during interior execution are recorded as `secret_read` under the operation or dispatch node.
 * Detective: the read itself returns the value (every host sink redacts it); capability bodies and the
 * provider client are host infrastructure and are not interior. The same watch is where the effect audit
 * refuses interior writes to the environment (installSecretWatch's argument), including an environment a tool
 * assigned in its place.
 */
import { interiorParentId, registerEnvSecret, secretsInText } from '../core/index.js';
import { activeInterior, recordAnomalyAnyState } from './raw-dynamic-runtime.js';
import { weakSetAdd, weakSetHas } from './intrinsics.js';

let installed = false;

/**
 * `refuseWrite(effect)` is called before every write to the environment (set, define, delete, and replacing
 * `process.env` itself) and throws to refuse it: the effect audit refuses writes by interior code, since the
 * environment is what the host's later child processes start with (`NODE_OPTIONS=--import=data:…` would run
 * model-chosen code in the next one, outside any dispatch).
 */
export function installSecretWatch(refuseWrite: (effect: string) => void): void {
  if (installed) return;
  installed = true;
  registerEnvSecret('OPENAI_API_KEY');
  const handler: ProxyHandler<NodeJS.ProcessEnv> = {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value === 'string' && typeof key === 'string') {
        const mark = activeInterior();
        if (mark) {
          const names = secretsInText(value);
          if (names.length > 0) {
            try {
              recordAnomalyAnyState('secret_read', { via: 'process.env', variable: key, secrets: names, interior: mark.kind }, interiorParentId(mark));
            } catch {
              /* the read is evidence only */
            }
          }
        }
      }
      return value;
    },
    set(target, key, value, receiver) {
      refuseWrite('process.env');
      return Reflect.set(target, key, value, receiver);
    },
    defineProperty(target, key, descriptor) {
      refuseWrite('process.env');
      return Reflect.defineProperty(target, key, descriptor);
    },
    deleteProperty(target, key) {
      refuseWrite('process.env');
      return Reflect.deleteProperty(target, key);
    },
  };
  const ours = new WeakSet<object>();
  const watch = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => {
    if ((typeof env !== 'object' && typeof env !== 'function') || env === null || weakSetHas(ours, env)) return env;
    const watched = new Proxy(env, handler);
    weakSetAdd(ours, watched);
    return watched;
  };
  // An accessor, so that replacing the whole object (`process.env = { NODE_OPTIONS: … }`) is a write too. Tools
  // outside runs may still assign their own, which is watched the same way (reads and writes).
  let current = watch(process.env);
  try {
    Object.defineProperty(process, 'env', {
      configurable: true,
      enumerable: true,
      get: () => current,
      set(value: NodeJS.ProcessEnv) {
        refuseWrite('process.env');
        current = watch(value);
      },
    });
  } catch {
    /* a pinned process.env stays unwatched; the sinks still redact */
  }
}
