// Stand-in for the built library (the built dist/kernel/src/index.js): plain JS + .d.ts, loaded once per process.
export class Marker {}
export const registry = { hostMarker: undefined, submitted: [], results: [], channel: undefined };
