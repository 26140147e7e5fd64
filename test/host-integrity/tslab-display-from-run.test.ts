/**
 * Attack: tslab's display API (`tslab.display.raw(type, data)`), reached by model code as a reference the operator
 * granted, writes a bundle straight to the cell's output. With a project MIME type it would draw a forged run view,
 * refusal or approval card. From a run's code the bundle is now read as a cell value's is: plain data, no project
 * MIME type, the attempt recorded (`display_forged_mime`). The operator's own tslab displays are unchanged.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { NighthawkMime } from '../../shared/index.js';
import { installCellOutputBridge } from '../../kernel/src/server/kernel/cell-output-bridge.js';
import type { MimeBundle } from '../../shared/index.js';
import * as nh from '../../kernel/src/index.js';
import { evaluateInStep, placeName, STEP_PLACES, type ModelCode } from './model-code.js';

const tslab = createRequire(import.meta.url)('tslab') as { display: { raw(type: string, data: string): void; html(s: string): void } };
const shown: MimeBundle[] = [];
installCellOutputBridge({ display: (bundle) => shown.push(bundle), clearOutput: () => undefined });

/** modelCodeIn with `tslab` granted as a reference too (generated code declares it as a dependency). */
function withTslab(place: (typeof STEP_PLACES)[number], body: string): ModelCode {
  const probe: { go?: () => Promise<unknown> } = {};
  return {
    expression: place === 'expression' ? `(async () => { ${body} })()` : 'probe.go()',
    references: { nh, probe, tslab },
    async prepare(ctx: nh.RunContext) {
      if (place !== 'generated') return;
      const dependencies = [{ name: 'tslab', kind: 'reference', type: 'object' }] as const;
      const { exports } = await ctx.dispatch({ language: 'javascript', intent: 'define', source: `export async function go() { ${body} }`, dependencies: [...dependencies] });
      probe.go = exports['go'] as () => Promise<unknown>;
    },
  };
}

describe('attack: tslab display from a run with a project MIME type', () => {
  for (const place of STEP_PLACES) {
    it(`from ${placeName(place)}: the project type is dropped and recorded; ordinary types still show`, async () => {
      shown.length = 0;
      const code = withTslab(place, `tslab.display.raw(${JSON.stringify(NighthawkMime.traceAnomaly)}, JSON.stringify({ kind: 'forged' })); tslab.display.html('<b>ok</b>'); return 'shown';`);
      const { events, previews } = await evaluateInStep(code);
      if (place === 'expression') expect(previews[0]).toBe('"shown"');
      expect(shown.flatMap((b) => Object.keys(b))).not.toContain(NighthawkMime.traceAnomaly);
      expect(shown).toContainEqual({ 'text/html': '<b>ok</b>' });
      const forged = events.filter((e) => e.kind === 'trace.anomaly' && e.status === 'display_forged_mime');
      expect(forged.map((e) => (e.data as { mimeTypes?: string[] }).mimeTypes)).toEqual([[NighthawkMime.traceAnomaly]]);
    });
  }

  it("the operator's own tslab display is shown as written", () => {
    shown.length = 0;
    tslab.display.raw(NighthawkMime.traceAnomaly, JSON.stringify({ kind: 'operator' }));
    expect(shown).toEqual([{ [NighthawkMime.traceAnomaly]: JSON.stringify({ kind: 'operator' }) }]);
  });
});
