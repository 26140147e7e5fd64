/**
 * The usage a provider's reply states, read from the reply's bytes before the `openai` package parses them,
 * for a host that meters it (`ModelRequest.reportUsage`: a run's cost allocation counts it). While a request
 * is in flight, code a model left running (an interval, a promise job, even one made only of built-ins such
 * as `Object.assign` bound to a fake reply) may replace what the package parses with: `Response.prototype.json`,
 * `JSON.parse`, the stream readers. So this reads with built-ins captured when the module loaded, and through
 * explicit callbacks on the captured `then` rather than `await`, which consults `Promise.prototype` as it is then.
 * The package still gets the reply, as a fresh `Response` over the same bytes (streams: one branch of a tee).
 */
import type { Usage } from '../core/index.js';

type Report = (usage: Partial<Usage>) => void;
type FetchLike = (url: unknown, init?: Record<PropertyKey, unknown>) => Promise<Response>;

const apply = Reflect.apply;
const ownGetter = (proto: object, name: string): ((this: unknown) => unknown) => Reflect.getOwnPropertyDescriptor(proto, name)!.get!;
const ResponseCtor = Response;
const TextDecoderCtor = TextDecoder;
const PromiseCtor = Promise;
const promiseThen = Promise.prototype.then;
const responseArrayBuffer = Response.prototype.arrayBuffer;
const responseStatus = ownGetter(Response.prototype, 'status');
const responseStatusText = ownGetter(Response.prototype, 'statusText');
const responseHeaders = ownGetter(Response.prototype, 'headers');
const responseBody = ownGetter(Response.prototype, 'body');
const headersGet = Headers.prototype.get;
const streamTee = ReadableStream.prototype.tee;
const streamGetReader = ReadableStream.prototype.getReader;
const readerRead = ReadableStreamDefaultReader.prototype.read;
const decode = TextDecoder.prototype.decode;
/** Whole bodies decode without state, so one decoder serves them all (streams get their own). */
const bodyDecoder = new TextDecoder();
const jsonParse = JSON.parse;
const indexOf = String.prototype.indexOf;
const slice = String.prototype.slice;
const hasOwn = Object.hasOwn;

/** The key of `fetchOptions` that carries a request's report to `meteredFetch` (never sent). */
export const REPORT_USAGE = Symbol('nighthawk.reportUsage');

const ignore = (): void => {};
/** `promise.then(onValue, onError)` on the captured method; a callback that throws is not an unhandled rejection. */
const then = <T>(promise: Promise<T>, onValue: (value: T) => void, onError: (error: unknown) => void): void => {
  const derived = apply(promiseThen, promise, [onValue, onError]) as Promise<void>;
  apply(promiseThen, derived, [undefined, ignore]);
};

/** `usage` of a parsed Chat Completions body (or stream chunk), when it states token counts. */
function usageOf(body: unknown): Partial<Usage> | undefined {
  if (typeof body !== 'object' || body === null || !hasOwn(body, 'usage')) return undefined;
  const usage = (body as { usage: unknown }).usage;
  if (typeof usage !== 'object' || usage === null) return undefined;
  const count = (key: string): number => {
    const value = hasOwn(usage, key) ? (usage as Record<string, unknown>)[key] : undefined;
    return typeof value === 'number' && value >= 0 && value < Infinity ? value : 0;
  };
  return { inputTokens: count('prompt_tokens'), outputTokens: count('completion_tokens') };
}

function parsed(text: string): unknown {
  try {
    return apply(jsonParse, undefined, [text]);
  } catch {
    return undefined;
  }
}

/** Reads one branch of a server-sent event stream to its end; the last chunk stating usage is reported. */
function meterStream(stream: ReadableStream<Uint8Array>, report: (usage: Partial<Usage> | undefined) => void): void {
  const reader = apply(streamGetReader, stream, []) as ReadableStreamDefaultReader<Uint8Array>;
  const decoder = new TextDecoderCtor();
  let pending = '';
  let last: Partial<Usage> | undefined;
  const line = (text: string): void => {
    if (apply(indexOf, text, ['data:']) !== 0) return;
    const usage = usageOf(parsed(apply(slice, text, [5]) as string));
    if (usage) last = usage;
  };
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    if (pending !== '') line(pending);
    report(last);
  };
  const next = (): void =>
    then(
      apply(readerRead, reader, []) as Promise<{ done: boolean; value?: Uint8Array }>,
      (result) => {
        if (result.done) return end();
        try {
          pending += apply(decode, decoder, [result.value, { stream: true }]) as string;
          for (let at = apply(indexOf, pending, ['\n']) as number; at >= 0; at = apply(indexOf, pending, ['\n']) as number) {
            line(apply(slice, pending, [0, at]) as string);
            pending = apply(slice, pending, [at + 1]) as string;
          }
        } catch {
          // Bytes that do not decode end the count with what it has (the package meets the same bytes).
          return end();
        }
        next();
      },
      // Cut off (an abort, a stalled stream ended by the timeout): what arrived is what counts.
      end,
    );
  next();
}

/**
 * `fetchImpl` for the `openai` package: a request whose `fetchOptions` carry `REPORT_USAGE` has its reply's
 * usage reported from the bytes; every other request passes through untouched.
 */
export function meteredFetch(fetchImpl: FetchLike): FetchLike {
  return (url, init) => {
    const report = init?.[REPORT_USAGE] as Report | undefined;
    if (typeof report !== 'function') return apply(fetchImpl, undefined, [url, init]) as Promise<Response>;
    const { [REPORT_USAGE]: _report, ...forwarded } = init!;
    const sent = apply(fetchImpl, undefined, [url, forwarded]) as Promise<Response>;
    return new PromiseCtor<Response>((resolve, reject) => {
      // A callback that threw would leave the package waiting forever: every failure here rejects instead.
      const guarded =
        <T>(fn: (value: T) => void) =>
        (value: T): void => {
          try {
            fn(value);
          } catch (error) {
            reject(error);
          }
        };
      const counted = (usage: Partial<Usage> | undefined): void => {
        if (!usage) return;
        try {
          report(usage);
        } catch {
          // The host's own count (its cost function) failed: it meets the same failure when the response is observed.
        }
      };
      then(
        sent,
        guarded((response: Response) => {
          const status = apply(responseStatus, response, []) as number;
          // Errors state no usage; the package reads them as they came.
          if (status < 200 || status >= 300) return resolve(response);
          const headers = apply(responseHeaders, response, []) as Headers;
          const fields = { status, statusText: apply(responseStatusText, response, []) as string, headers };
          const type = (apply(headersGet, headers, ['content-type']) as string | null) ?? '';
          const body = apply(responseBody, response, []) as ReadableStream<Uint8Array> | null;
          if (body !== null && (apply(indexOf, type, ['text/event-stream']) as number) >= 0) {
            const [forPackage, forMeter] = apply(streamTee, body, []) as [ReadableStream<Uint8Array>, ReadableStream<Uint8Array>];
            meterStream(forMeter, counted);
            return resolve(new ResponseCtor(forPackage, fields));
          }
          then(
            apply(responseArrayBuffer, response, []) as Promise<ArrayBuffer>,
            guarded((bytes: ArrayBuffer) => {
              counted(usageOf(parsed(apply(decode, bodyDecoder, [bytes]) as string)));
              resolve(new ResponseCtor(bytes, fields));
            }),
            reject,
          );
        }),
        reject,
      );
    });
  };
}
