/**
 * The Session a notebook kernel hosts. The kernel sets it once at start-up; cells read it through
 * the library (`activeSession()`), which is the same live instance the kernel holds.
 */
import { operatorOnly } from './operator-only.js';
import type { Session } from './session.js';

let active: Session | undefined;

/** The kernel's Session, or undefined outside a kernel. */
export function activeSession(): Session | undefined {
  return active;
}

/** Host-only: installs the Session the kernel hosts. Refused from inside a run. */
export function setActiveSession(session: Session | undefined): void {
  operatorOnly('setActiveSession');
  active = session;
}
