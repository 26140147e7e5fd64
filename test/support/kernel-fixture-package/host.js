// Kernel host fixture: imports the library by its package name, as the real Session host will.
import { Marker, registry } from 'kernel-fixture-package';

export function createKernelHost(channel) {
  registry.hostMarker = new Marker();
  registry.channel = channel;
  return {
    submitCell(source) {
      registry.submitted.push(source);
      if (source.includes('REFUSE')) throw new Error('cell refused by the host');
    },
    afterCell(result, scope) {
      registry.results.push({ kind: result.kind, declared: Object.keys(scope?.declared ?? {}).sort() });
      if (scope && 'rebindMe' in scope.declared) scope.rebind('rebindMe', 'rebound by host');
    },
  };
}

export function transformCell(source) {
  return { code: source.replaceAll('@@answer@@', '42') };
}
