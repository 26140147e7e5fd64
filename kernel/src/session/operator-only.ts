/** The one check every operator control makes before it acts. */
import { insideHostFrame, refuseInteriorControl } from '../harness/index.js';
import { OperatorControlError } from './errors.js';

/** Inside a run (a model's code, generated code, a SessionFunction body): records the attempt and throws. */
export function operatorOnly(control: string): void {
  if (!insideHostFrame()) return;
  refuseInteriorControl(control);
  throw new OperatorControlError({ control });
}
