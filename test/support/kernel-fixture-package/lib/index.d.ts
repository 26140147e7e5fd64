export declare class Marker {}
export interface FixtureChannel {
  display(bundle: Record<string, unknown>, options?: { displayId?: string; update?: boolean }): void;
  requestInput(prompt: string, options: { password?: boolean; timeoutMs: number }): Promise<string>;
}
export declare const registry: {
  hostMarker: Marker | undefined;
  submitted: string[];
  results: Array<{ kind: string; declared: string[] }>;
  channel: FixtureChannel | undefined;
};
