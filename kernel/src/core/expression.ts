/**
 * Evaluation of model-authored JavaScript expressions against a step's locals and references.
 * Expressions run in this interpreter, under `with (scope)` (a sloppy-mode statement) in a strict arrow, so a write the
 * engine refuses (a frozen object) throws instead of being dropped silently. This is not a sandbox,
 * and the Harness adds its own detective checks. `await` is allowed.
 */

import vm from 'node:vm';
import { currentOperationId } from './interior.js';
import { facingStructuredClone, modelFacingReference } from './model-facing.js';
import { reportRefusal } from './refusal-sink.js';
import { ENTER_GENERATOR_NAME, ENTER_NAME, ESCAPING_NAME, LIVE_NAME, RESUMED_NAME, guardExpressionFunctions, type ExpressionGuard } from './expression-guard.js';

type RawExpression = (
  scope: object,
  live: ExpressionGuard['live'],
  resumed: ExpressionGuard['resumed'],
  enter: ExpressionGuard['enter'],
  enterGenerator: ExpressionGuard['enterGenerator'],
  escaping: ExpressionGuard['escaping'],
) => Promise<unknown>;
type CompiledExpression = (scope: object, guard?: ExpressionGuard) => Promise<unknown>;
const UNGUARDED: ExpressionGuard = { live: () => {}, resumed: <T>(value: T): T => value, enter: <T>(body: () => T): T => body(), enterGenerator: (inner) => inner, escaping: () => {} };

// Captured at load: the Harness run-time tier refuses `vm.*` to interior code, and the host compiler is not interior.
const compileFunction = vm.compileFunction;

const compiled = new Map<string, CompiledExpression>();

/** Compiles (once per distinct text) an expression into an async function of a scope object. */
export function compileExpression(expression: string): CompiledExpression {
  let fn = compiled.get(expression);
  if (fn) return fn;
  if (expression.trim() === '') throw new SyntaxError('The expression is empty.');
  // The newline before the closing parenthesis keeps a trailing line comment from eating it.
  // Compiled without a dynamic-import callback, so `import()` in an expression is refused by the engine.
  // Functions the expression defines get guards bound to the evaluation (see expression-guard.ts).
  const raw = compileFunction(`with (__nh_scope__) { return (async () => { 'use strict'; return (\n${guardExpressionFunctions(expression)}\n); })(); }`, ['__nh_scope__', LIVE_NAME, RESUMED_NAME, ENTER_NAME, ENTER_GENERATOR_NAME, ESCAPING_NAME], {
    filename: 'nighthawk-expression',
  }) as RawExpression;
  fn = (scope, guard = UNGUARDED) => raw(scope, guard.live, guard.resumed, guard.enter, guard.enterGenerator, guard.escaping);
  if (compiled.size > 10_000) compiled.clear();
  compiled.set(expression, fn);
  return fn;
}

/**
 * A `with` scope over locals then references, each seen through its model-facing view (model-facing.ts). Unknown
 * names that are real globals (Math, JSON…)
 * fall through to globalThis (`structuredClone` is facingStructuredClone); any other unknown name throws ReferenceError
 * instead of leaking a sloppy-mode global. Assignment to a bare name is refused: writes go through `nh_assign`.
 */
export function createScope(locals: Record<string, unknown>, references: Readonly<Record<string, unknown>>): object {
  return new Proxy(Object.create(null) as object, {
    has(_target, name) {
      if (typeof name !== 'string') return false;
      // The guards are parameters of the compiled expression; model text cannot name them (static check).
      if (name.startsWith('__nh_')) return false;
      if (name in locals || name in references || name === 'structuredClone') return true;
      return !(name in globalThis);
    },
    get(_target, name) {
      if (typeof name !== 'string') return undefined;
      if (name in locals) return modelFacingReference(locals[name]);
      if (name in references) return modelFacingReference(references[name]);
      if (name === 'structuredClone') return facingStructuredClone;
      throw new ReferenceError(`${name} is not defined`);
    },
    // Refused and recorded where it happens, so a catch in the expression cannot hide the attempt.
    set(_target, name) {
      refuseBindingWrite(name, 'assign');
      throw new TypeError(`Cannot assign to '${String(name)}' inside an expression; use nh_assign to set a binding.`);
    },
    deleteProperty(_target, name) {
      refuseBindingWrite(name, 'delete');
      throw new TypeError(`Cannot delete '${String(name)}' inside an expression.`);
    },
  });
}

/** A step's name written outside nh_assign (the typed boundary): `expression_binding_write`, under the operation. */
function refuseBindingWrite(name: string | symbol, action: 'assign' | 'delete'): void {
  const operationId = currentOperationId();
  reportRefusal('expression_binding_write', { operationId, name: String(name), action }, operationId);
}

/** Matches `name(.field)*` with ASCII identifiers and no segment that could reach prototypes. */
const PATH = /^[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*$/;
const FORBIDDEN_SEGMENTS = new Set(['constructor', 'prototype']);

/** Splits an assignment target path, or returns a description of why it is invalid. */
export function parseTargetPath(path: string): string[] | string {
  if (typeof path !== 'string' || !PATH.test(path)) {
    return `target_path '${String(path)}' must be a name or a dotted path of identifiers (name.field.sub).`;
  }
  const segments = path.split('.');
  for (const s of segments) {
    if (s.startsWith('__') || FORBIDDEN_SEGMENTS.has(s)) return `target_path segment '${s}' is not assignable.`;
  }
  return segments;
}
