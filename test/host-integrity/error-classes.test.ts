/**
 * Attack: the library's error classes and their prototypes were open. Model code reaches them: an exported class
 * through `nh`, any error it caught through its prototype chain. An accessor put on `NighthawkError.prototype`
 * ran for every error the host made later (its constructor sets `this.name` through the chain): after the run the
 * guard refused it, so every host error in the process failed to construct; a class renamed renamed its errors in
 * the host's records.
 *
 * Every error class the library exports (and those the kernel hands to cells) is now frozen with its prototype
 * when its folder loads. Instances are untouched: an error's own `name` can still be set, and users' own
 * subclasses stay theirs.
 */
import { describe, expect, it } from 'vitest';
import * as nh from '../../kernel/src/index.js';
import { InputRequestError } from '../../kernel/src/server/kernel/errors.js';
import { STEP_PLACES, evaluateInStep, modelCodeIn, placeName } from './model-code.js';

const ATTACKS: Record<string, string> = {
  'an accessor on the base prototype': `Object.defineProperty(nh.NighthawkError.prototype, 'name', { get() { return 'Fine'; }, set() {} })`,
  'a class renamed': `Object.defineProperty(nh.HostIntegrityError, 'name', { value: 'Fine' })`,
  "a caught error's prototype": `(() => { try { nh.currentStepContext().markFinished(); } catch (e) { Object.defineProperty(Object.getPrototypeOf(e), 'toString', { value: () => 'Fine' }); } })()`,
};

describe("attack: model code changing the library's error classes", () => {
  for (const place of STEP_PLACES) {
    for (const [what, attack] of Object.entries(ATTACKS)) {
      it(`${what}, from ${placeName(place)}: refused by the engine; the host's later errors are as made`, async () => {
        const code = modelCodeIn(place, `try { ${attack}; return 'changed'; } catch (e) { return e.name; }`);
        const { previews, outcome } = await evaluateInStep(code);
        expect(previews[0]).toBe('"TypeError"');
        expect(outcome).toBe('returned:{}');
        const made = new nh.HostIntegrityError({ attempt: 'nested-run', detail: 'probe' });
        expect([made.name, String(made)]).toEqual(['HostIntegrityError', 'HostIntegrityError: Refused (nested-run): probe']);
        expect(nh.StepControlRefusedError.prototype.toString).toBe(Error.prototype.toString);
      });
    }
  }

  it('every exported error class, and the ones cells reach in the kernel, is frozen with its prototype; instances and subclasses are not', () => {
    const classes = Object.entries(nh).filter(([, v]) => typeof v === 'function' && (v === nh.NighthawkError || nh.isInstance((v as { prototype: unknown }).prototype, nh.NighthawkError)));
    expect(classes.length).toBeGreaterThan(50);
    expect(classes.filter(([, v]) => !Object.isFrozen(v) || !Object.isFrozen((v as { prototype: object }).prototype)).map(([k]) => k)).toEqual([]);
    expect(Object.isFrozen(InputRequestError.prototype)).toBe(true);
    const own = new nh.UsageError('x');
    own.name = 'Renamed';
    expect(own.name).toBe('Renamed');
    class Mine extends nh.UsageError {}
    (Mine.prototype as unknown as { extra: number }).extra = 1;
    expect(new Mine('y')).toMatchObject({ name: 'Mine', kind: 'usage', extra: 1 });
  });
});
