/**
 * Values the host registers as secrets (the configured provider API key, anything an operator adds) and
 * the redactor every host sink calls before it writes: ledger snapshots, the SQLite ledger and perimeter
 * audit, cassettes, kernel outputs and saved notebooks. A secret is replaced by `[redacted:NAME]`.
 *
 * The registry is process-wide and append-only: nothing here removes a secret. Short values are refused,
 * since redacting them would rewrite ordinary text.
 */
import { SecretRegistrationError, UsageError } from './errors.js';
import { modelCodeRunning } from './operation-body.js';
import { reportRefusal } from './refusal-sink.js';

const MIN_LENGTH = 8;
const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
// Captured at load: interior code can replace these in the shared realm, and redaction must not ask it.
const includes = String.prototype.includes;
const split = String.prototype.split;
const join = Array.prototype.join;
const apply = Reflect.apply;
const isArray = Array.isArray;
const keys = Object.keys;
const getPrototypeOf = Object.getPrototypeOf;
const isFrozen = Object.isFrozen;
const freeze = Object.freeze;
const getOwnPropertyDescriptor = Reflect.getOwnPropertyDescriptor;
const defineProperty = Reflect.defineProperty;

/** Longest first, so a secret that contains another is replaced whole. */
let secrets: readonly { readonly name: string; readonly value: string }[] = [];
/** Changes whenever a secret is added, so a cache of redacted values knows when to redo them. */
let version = 0;

/** The registry's version: redacted copies made at an older version may still carry a newer secret. */
export function secretsVersion(): number {
  return version;
}

/**
 * Registers `value` as a secret recorded as `[redacted:<name>]`. Idempotent; empty values are ignored. Model code (an
 * expression, generated code, an operation body) is refused: it would choose what every record hides.
 */
export function registerSecret(name: string, value: string | undefined): void {
  if (modelCodeRunning()) {
    const secretName = typeof name === 'string' ? name : String(typeof name);
    reportRefusal('secret_registration_from_model_code', { secretName });
    throw new SecretRegistrationError({ secretName });
  }
  if (typeof name !== 'string' || !NAME.test(name)) throw new UsageError(`registerSecret(): name '${String(name)}' must be an identifier such as OPENAI_API_KEY.`);
  if (value === undefined || value === '') return;
  if (typeof value !== 'string' || value.length < MIN_LENGTH) {
    throw new UsageError(`registerSecret('${name}'): a secret must be a string of at least ${MIN_LENGTH} characters; shorter values would redact ordinary text.`);
  }
  if (secrets.some((s) => s.value === value)) return;
  secrets = freeze([...secrets, freeze({ name, value })].sort((a, b) => b.value.length - a.value.length));
  version++;
}

/** Registers an environment variable's value under its own name when it is long enough to be a secret. */
export function registerEnvSecret(name: string, env: Readonly<Record<string, string | undefined>> = process.env): void {
  const value = env[name];
  if (typeof value === 'string' && value.length >= MIN_LENGTH) registerSecret(name, value);
}

/** Names of the registered secrets (never their values). */
export function registeredSecretNames(): string[] {
  return [...new Set(secrets.map((s) => s.name))];
}

export function hasRegisteredSecrets(): boolean {
  return secrets.length > 0;
}

/** The names of the registered secrets `text` contains. */
export function secretsInText(text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < secrets.length; i++) if (apply(includes, text, [secrets[i]!.value])) found[found.length] = secrets[i]!.name;
  return found;
}

/** Replaces every registered secret in `text` with `[redacted:NAME]`. */
export function redactText(text: string): string {
  let out = text;
  for (let i = 0; i < secrets.length; i++) {
    const { name, value } = secrets[i]!;
    if (apply(includes, out, [value])) out = apply(join, apply(split, out, [value]), [`[redacted:${name}]`]) as string;
  }
  return out;
}

/**
 * `redactText` that also appends the name of each secret it replaced to `found`: a walk that redacts can
 * report what it redacted without a second pass over its output.
 */
export function redactTextNoting(text: string, found: string[]): string {
  let out = text;
  for (let i = 0; i < secrets.length; i++) {
    const { name, value } = secrets[i]!;
    if (!apply(includes, out, [value])) continue;
    out = apply(join, apply(split, out, [value]), [`[redacted:${name}]`]) as string;
    found[found.length] = name;
  }
  return out;
}

/** The names of the registered secrets anywhere in a value's strings and keys (own data properties only). */
export function secretsIn(value: unknown): string[] {
  if (secrets.length === 0) return [];
  const found = new Set<string>();
  visit(value, 0, (text) => {
    for (const name of secretsInText(text)) found.add(name);
    return text;
  });
  return [...found];
}

/**
 * A copy of `value` with every registered secret redacted from its strings (and keys). Returns `value`
 * itself when nothing changed; a frozen container is returned frozen. Only arrays and plain or
 * null-prototype objects are entered; reading them runs no accessor.
 */
export function redactValue<T>(value: T): T {
  if (secrets.length === 0) return value;
  return visit(value, 0, redactText) as T;
}

const REDACTION = /\[redacted:([A-Za-z_][A-Za-z0-9_.-]*)\]/g;
const matchAll = String.prototype.matchAll;

/** The names of the redactions a (redacted) value carries: where a secret was found and replaced. */
export function redactionsIn(value: unknown): string[] {
  if (secrets.length === 0) return [];
  const found = new Set<string>();
  visit(value, 0, (text) => {
    if (apply(includes, text, ['[redacted:'])) for (const m of apply(matchAll, text, [REDACTION]) as IterableIterator<RegExpMatchArray>) found.add(m[1]!);
    return text;
  });
  return [...found];
}

const MAX_DEPTH = 256;

function visit(value: unknown, depth: number, onText: (text: string) => string): unknown {
  if (typeof value === 'string') return onText(value);
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return value;
  if (isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const d = getOwnPropertyDescriptor(value, i);
      if (!d || !('value' in d)) continue;
      const item = visit(d.value, depth + 1, onText);
      if (item !== d.value) (out ??= [...(value as unknown[])])[i] = item;
    }
    if (!out) return value;
    return isFrozen(value) ? freeze(out) : out;
  }
  const proto = getPrototypeOf(value) as object | null;
  if (proto !== null && proto !== Object.prototype) return value;
  let out: Record<string, unknown> | undefined;
  const names = keys(value);
  for (let i = 0; i < names.length; i++) {
    const key = names[i]!;
    const d = getOwnPropertyDescriptor(value, key);
    if (!d || !('value' in d)) continue;
    const item = visit(d.value, depth + 1, onText);
    const newKey = onText(key);
    if (item !== d.value || newKey !== key) {
      if (!out) {
        out = proto === null ? (Object.create(null) as Record<string, unknown>) : {};
        for (let j = 0; j < names.length; j++) {
          const dj = getOwnPropertyDescriptor(value, names[j]!);
          if (dj && 'value' in dj) defineProperty(out, names[j]!, { value: dj.value, enumerable: true, writable: true, configurable: true });
        }
      }
      if (newKey !== key) delete out[key];
      defineProperty(out, newKey, { value: item, enumerable: true, writable: true, configurable: true });
    }
  }
  if (!out) return value;
  return isFrozen(value) ? freeze(out) : out;
}
