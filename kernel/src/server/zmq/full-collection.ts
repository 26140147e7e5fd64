/**
 * One full garbage collection on demand, without `--expose-gc` on the command line (which would give every
 * cell a global `gc`): the flag is set only while the collector is fetched into this module's closure.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

let collector: (() => void) | undefined;

export function collectGarbage(): void {
  if (!collector) {
    v8.setFlagsFromString('--expose-gc');
    try {
      collector = vm.runInNewContext('gc') as () => void;
    } finally {
      v8.setFlagsFromString('--no-expose-gc');
    }
  }
  collector();
}
