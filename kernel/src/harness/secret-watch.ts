/**
 * A model reading a registered secret is a trace anomaly (issue 13, item 5). The provider key in the
 * environment is registered at installation, and reads of `process.env` entries holding a registered
 * secret during interior execution are recorded as `secret_read` under the operation or dispatch node.
 * Detective: the read itself returns the value (every host sink redacts it); capability bodies and the
 * provider client are host infrastructure and are not interior.
 */
import { interiorParentId, registerEnvSecret, secretsInText } from '../core/index.js';
import { activeInterior, recordAnomalyAnyState } from './raw-dynamic-runtime.js';

let installed = false;

export function installSecretWatch(): void {
  if (installed) return;
  installed = true;
  registerEnvSecret('OPENAI_API_KEY');
  const env = process.env;
  const watched = new Proxy(env, {
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
  });
  try {
    process.env = watched;
  } catch {
    /* a pinned process.env stays unwatched; the sinks still redact */
  }
}
