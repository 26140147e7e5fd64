/**
 * Who called a function, read from V8's structured call sites with the host's own formatter and frame limit
 * for the duration of the read. Model code may have replaced the global formatter, the limit or the call-site
 * prototype's methods: `getFileName` is taken at load, and a formatter or limit pinned by someone else cannot
 * be trusted to report the caller, so the answer is then "unknown" (callers fail closed on it).
 */
import { reflectApply } from './intrinsics.js';

const RealError = Error;
const captureStackTrace = Error.captureStackTrace;
const isArray = Array.isArray;
const getOwn = Reflect.getOwnPropertyDescriptor;
const define = Reflect.defineProperty;
const remove = Reflect.deleteProperty;
const toSites = (_error: unknown, sites: unknown): unknown => sites;

/** The structured frames above `above` (or above this read), at most `limit` of them; undefined when unreadable. */
function callSites(above: Function | undefined, limit: number): unknown[] | undefined {
  const prepare = getOwn(RealError, 'prepareStackTrace');
  const frames = getOwn(RealError, 'stackTraceLimit');
  if ((prepare && !prepare.configurable) || (frames && !frames.configurable)) return undefined;
  const holder: { stack?: unknown } = {};
  try {
    define(RealError, 'prepareStackTrace', { value: toSites, configurable: true, writable: true });
    define(RealError, 'stackTraceLimit', { value: limit, configurable: true, writable: true });
    if (above) captureStackTrace(holder, above);
    else captureStackTrace(holder);
    const sites = holder.stack;
    return isArray(sites) && sites.length > 0 ? sites : undefined;
  } catch {
    return undefined;
  } finally {
    if (prepare) define(RealError, 'prepareStackTrace', prepare);
    else remove(RealError, 'prepareStackTrace');
    if (frames) define(RealError, 'stackTraceLimit', frames);
  }
}

const callSiteFileName = ((): ((this: unknown) => unknown) | undefined => {
  const site = callSites(undefined, 1)?.[0];
  return site ? (Object.getPrototypeOf(site) as { getFileName(): unknown }).getFileName : undefined;
})();

/** The file of the frame that called `callee` (a path, a `file:` URL or `node:…`), or undefined when unknown. */
export function callerFile(callee: Function): string | undefined {
  if (!callSiteFileName) return undefined;
  const site = callSites(callee, 1)?.[0];
  if (site === undefined) return undefined;
  try {
    const name = reflectApply(callSiteFileName, site, []);
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}
