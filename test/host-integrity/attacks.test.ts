/**
 * Attacker cases from the three places (see support.ts): each must be refused or inert, leave the
 * ledger's governance record and the SQLite audit database exactly as the real run produced them,
 * and leave a trace anomaly naming the attempt (in the run, or in the Session's record after run end).
 */
import { describe, expect, it } from 'vitest';
import { approvalCases, asyncContextCases, auditCases, diagnosticsCases, authorityCases, lateCallbackCases, ledgerCases, operatorLedgerCases, reachCases, reopenCases, storeObjectCases, type AttackCase } from './cases.js';
import { PLACES, attack, expectContained, expectTerminalContained, stoppedBaseline } from './support.js';

function suite(name: string, cases: readonly AttackCase[]): void {
  describe(name, () => {
    for (const c of cases) {
      for (const place of c.places ?? PLACES) {
        it(`${c.id} — from ${place}`, async () => {
          const result = await attack(place, c.body, c.options);
          if (c.terminalFrom?.includes(place)) expectTerminalContained(result, await stoppedBaseline(place, c.options), c.anomaly!, expect);
          else expectContained(result, c.anomaly, expect);
        });
      }
    }
  });
}

suite('reaching host state through async context', asyncContextCases);
suite('observing what the host sends through diagnostics channels', diagnosticsCases);
suite('reaching host state through globals, symbols, prototypes, getters, closures and errors', reachCases);
suite('appending, mutating or deleting ledger events', ledgerCases);
suite('widening authority, forging seams and the gateway allowance, replacing oversight', authorityCases);
suite('reaching or damaging the perimeter audit store', auditCases);
suite('writing through the operator-held Ledger and SQLite ledger store, opening another store', operatorLedgerCases);
suite('reopening a finished run', reopenCases);
suite("shadowing the methods of the operator's audit and ledger stores", storeObjectCases);
suite('getting a generated closure approved, operator controls', approvalCases);
suite('leaving a model-made function in an event-loop callback after the run', lateCallbackCases);
