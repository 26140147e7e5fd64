/**
 * Where a network effect goes, read from the arguments of the audited call, for the allowance a model request is
 * sent under (host-context.ts): when the client declared its origins, only those are admitted. The arguments may
 * be a model's (a built-in it replaced with a bound network function, called by the client), so they are read as
 * the host loaded the built-ins: URLs parsed by the URL class captured here, options by data descriptors along
 * their prototype chain (a getter or a proxy could answer one host here and another to Node), anything else
 * undecidable (refused).
 */
import { types as utilTypes } from 'node:util';
import { getOwnPropertyDescriptor, getPrototypeOf, isArray, reflectApply, regExpExec, regExpTest, stringSlice, StringCtor } from './intrinsics.js';

/** A place a connection goes: a host name (lower case, IPv6 without brackets) and a port. */
export interface NetworkPlace {
  readonly hostname: string;
  readonly port: number;
}

const URLCtor = URL;
const urlGetter = (name: string) => getOwnPropertyDescriptor(URL.prototype, name)!.get! as (this: URL) => string;
const urlHref = urlGetter('href');
const urlProtocol = urlGetter('protocol');
const urlHostname = urlGetter('hostname');
const urlPort = urlGetter('port');
const truncate = Math.trunc;
const RequestCtor = typeof Request === 'function' ? Request : undefined;
const requestUrl = RequestCtor ? getOwnPropertyDescriptor(RequestCtor.prototype, 'url')?.get : undefined;
const { isProxy } = utilTypes;
const numberOf = Number;
const toLowerCase = String.prototype.toLowerCase;
const DEFAULT_PORTS: Readonly<Record<string, number>> = { __proto__: null, 'http:': 80, 'https:': 443, 'ws:': 80, 'wss:': 443 } as never;
const WEB_REQUEST = /^(https?)\.(?:request|get|ClientRequest)$/;
const DNS_QUERY = /^dns(?:\.promises)?\.(?:Resolver\.)?\w+$/;

function bare(hostname: string): string {
  const lower = reflectApply(toLowerCase, hostname, []) as string;
  return lower.length > 1 && lower[0] === '[' && lower[lower.length - 1] === ']' ? stringSlice(lower, 1, lower.length - 1) : lower;
}

/** An origin string's place, or undefined when it is not an http(s)/ws(s) URL. */
export function placeOfOrigin(origin: string): NetworkPlace | undefined {
  let url: URL;
  try {
    url = new URLCtor(origin);
  } catch {
    return undefined;
  }
  const defaultPort = DEFAULT_PORTS[reflectApply(urlProtocol, url, []) as string];
  const hostname = reflectApply(urlHostname, url, []) as string;
  const port = reflectApply(urlPort, url, []) as string;
  if (defaultPort === undefined || hostname === '') return undefined;
  return { hostname: bare(hostname), port: port === '' ? defaultPort : numberOf(port) };
}

/** A URL argument (a string, a URL, a fetch Request) as a place; undefined when it is none of those. */
function placeOfUrlArgument(value: unknown): NetworkPlace | undefined {
  if (typeof value === 'string') return placeOfOrigin(value);
  if (typeof value !== 'object' || value === null || isProxy(value)) return undefined;
  try {
    // The built-in getters throw on anything that is not really a URL or a Request (a look-alike's own href lies).
    return placeOfOrigin(reflectApply(urlHref, value, []) as string);
  } catch {
    /* not a URL */
  }
  if (requestUrl === undefined) return undefined;
  try {
    return placeOfOrigin(reflectApply(requestUrl, value, []) as string);
  } catch {
    return undefined;
  }
}

/**
 * The value Node reads at `target[key]`, found by descriptors along the prototype chain (a key a model put on
 * Object.prototype counts): `absent` when nothing has it; undefined (decide nothing) for an accessor or a proxy.
 */
function seenValue(target: object, key: string): { value: unknown } | 'absent' | undefined {
  let current: object | null = target;
  for (let depth = 0; current !== null && depth < 32; depth++) {
    if (isProxy(current)) return undefined;
    const d = getOwnPropertyDescriptor(current, key);
    if (d !== undefined) return 'value' in d ? { value: d.value } : undefined;
    current = getPrototypeOf(current);
  }
  return current === null ? 'absent' : undefined;
}

/**
 * Connection options (`net`, `tls`, `http` request options): host or hostname, port, and no socket path (`path`
 * names one for `net` and `tls`; for `http` it is the request's path).
 */
function placeOfOptions(options: unknown, defaultPort: number | undefined, socket: boolean): NetworkPlace | undefined {
  if (typeof options !== 'object' || options === null || isProxy(options)) return undefined;
  const socketPath = seenValue(options, 'socketPath');
  const pipe = socket ? seenValue(options, 'path') : 'absent';
  if (socketPath === undefined || pipe === undefined || (socketPath !== 'absent' && socketPath.value !== undefined) || (pipe !== 'absent' && pipe.value !== undefined)) return undefined;
  const hostname = seenValue(options, 'hostname');
  const host = seenValue(options, 'host');
  const port = seenValue(options, 'port');
  if (hostname === undefined || host === undefined || port === undefined) return undefined;
  const name = hostname !== 'absent' && hostname.value !== undefined ? hostname.value : host !== 'absent' ? host.value : undefined;
  if (typeof name !== 'string' || name === '') return undefined;
  // `host` of http options may carry a port (`example.com:8080`): not a bare host name, so undecided.
  const portValue = port !== 'absent' && port.value !== undefined && port.value !== null ? numberOf(port.value) : defaultPort;
  if (portValue === undefined || !(portValue >= 0 && portValue <= 65535) || portValue !== truncate(portValue)) return undefined;
  return { hostname: bare(name), port: portValue };
}

const PLACE_KEYS: readonly string[] = ['host', 'hostname', 'port', 'socketPath'];

/** Options given beside a URL that leave its host and port as they are. */
function keepsUrlPlace(options: object): boolean {
  for (let i = 0; i < PLACE_KEYS.length; i++) {
    const d = seenValue(options, PLACE_KEYS[i]!);
    if (d === undefined || (d !== 'absent' && d.value !== undefined)) return false;
  }
  return true;
}

/**
 * Where the audited call `effect` connects, from its arguments; undefined when it cannot be decided. A DNS query has
 * a host name only: its port is 0, matched by host name alone (see admits).
 */
export function destinationOf(effect: string, args: readonly unknown[]): NetworkPlace | undefined {
  const first = args[0];
  if (effect === 'fetch') return placeOfUrlArgument(first);
  if (effect === 'net.Socket.connect') {
    // net.connect hands Socket#connect its normalized arguments: [options, callback].
    const options = isArray(first) ? first[0] : first;
    if (typeof options === 'number' || typeof options === 'string') return placeOfOptions({ port: options, host: typeof args[1] === 'string' ? args[1] : 'localhost' }, undefined, true);
    return placeOfOptions(options, undefined, true);
  }
  if (effect === 'tls.connect') {
    if (typeof first === 'number') return placeOfOptions({ port: first, host: typeof args[1] === 'string' ? args[1] : 'localhost' }, 443, true);
    return placeOfOptions(first, 443, true);
  }
  if (effect === 'http2.connect') return placeOfUrlArgument(first);
  const web = regExpExec(WEB_REQUEST, effect);
  if (web) {
    const defaultPort = web[1] === 'https' ? 443 : 80;
    // (url[, options][, callback]): options beside a URL that name a host, port or socket override it; undecided then.
    const fromUrl = placeOfUrlArgument(first);
    if (fromUrl !== undefined) return typeof args[1] === 'object' && args[1] !== null && !keepsUrlPlace(args[1]) ? undefined : fromUrl;
    return placeOfOptions(first, defaultPort, false);
  }
  if (regExpTest(DNS_QUERY, effect)) {
    return typeof first === 'string' && first !== '' ? { hostname: bare(first), port: 0 } : undefined;
  }
  return undefined;
}

/** Whether `destination` is one of `origins` (a DNS query, port 0: any origin with that host name). */
export function admits(origins: readonly NetworkPlace[], destination: NetworkPlace): boolean {
  for (let i = 0; i < origins.length; i++) {
    const origin = origins[i]!;
    if (origin.hostname === destination.hostname && (destination.port === 0 || origin.port === destination.port)) return true;
  }
  return false;
}

export const describePlace = (place: NetworkPlace | undefined): string => (place === undefined ? 'undecidable' : `${place.hostname}:${StringCtor(place.port)}`);
