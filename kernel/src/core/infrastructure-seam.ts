/**
 * Host work done while a model request is sent. A Runner's model request runs under an allowance that admits the
 * network only (harness/host-context.ts), so that a host function a model planted where the provider client calls
 * it gets nothing else. A recording client writing its cassette is the host's own file work there: it runs through
 * this seam, which the harness installs as it loads (the first installation stands) with an allowance for
 * everything. Only the first claimant (the cassette module, as the library loads) holds a runner; every later claim
 * gets nothing, so no one can hand the seam a callback of their choosing.
 */
export type InfrastructureRunner = <T>(holder: string, fn: () => T) => T;

let seam: InfrastructureRunner | undefined;
let claimed = false;

export function setInfrastructureSeam(value: InfrastructureRunner): void {
  seam ??= value;
}

/** The runner for the first caller; undefined for every later one. Without a harness, work runs as it is. */
export function claimInfrastructureRunner(): InfrastructureRunner | undefined {
  if (claimed) return undefined;
  claimed = true;
  return (holder, fn) => (seam === undefined ? fn() : seam(holder, fn));
}
