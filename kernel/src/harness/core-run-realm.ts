/**
 * The built-ins check of core-only runs (`nh.run` with no Runner: core/realm-seam.ts), installed when the harness
 * loads. The built-ins are recorded (with the effect audit's patches) before any run's first step, whichever kind
 * of run comes first, so nothing a core-only run's model code changes becomes what later runs are restored to.
 * After each operation and step of a core-only run a change is restored and noted where anomalies without a
 * Runner's ledger go; a Runner's run is left to its host, which checks at its own seams and records in its ledger.
 */
import { setRealmSeam } from '../core/index.js';
import { installEffectAudit } from './effect-audit.js';
import { currentHostFrame, recorderOutsideRunners } from './host-context.js';
import { recordRealmChanges } from './realm-integrity.js';

setRealmSeam({
  prepare: installEffectAudit,
  check: (scope, runId, parentId) => {
    if (currentHostFrame() === undefined) recordRealmChanges(recorderOutsideRunners(runId), parentId, scope);
  },
});
