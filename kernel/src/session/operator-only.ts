/**
 * The one check every operator control makes before it acts: the Session's, the kernel's `console.clear`, and
 * any a host adds of its own (a control that must never be an Agent capability).
 */
import { notOperatorCode, refuseDuringUntrustedRead, refuseInteriorControl } from '../harness/index.js';
import { OperatorControlError } from './errors.js';

/**
 * Inside a run (a model's code, generated code, a SessionFunction body), while the host reads a value a model may
 * have built (a cell's value being displayed), or while model code of a core-only run (`run()` with no Runner, so no
 * host frame) executes: records the attempt and throws.
 */
export function operatorOnly(control: string): void {
  if (!notOperatorCode()) return;
  refuseDuringUntrustedRead(control, (c) => new OperatorControlError({ control: c }));
  refuseInteriorControl(control);
  throw new OperatorControlError({ control });
}
