/**
 * The answers to the page's first requests (early-start.ts: the notebook file, the notebook's session, the kernel's
 * WebSocket), handed to the app: the notebook's response once to the identical GET that services would make
 * (connection.ts passes `earlyResponse` as its fetch) and read without services (earlyNotebook), so the first draw
 * does not wait for that chunk; the session's answer to kernel-session.ts (earlySession); the socket to services'
 * KernelConnection (adoptEarlySocket, through the page's settings) instead of one it would open after the
 * services chunk loaded. The notebook's draft (from IndexedDB) is asked for here too.
 *
 * The requests were sent by the script inlined in index.html, before this module loaded; where that script did not
 * run, this module sends them as it evaluates (it is the entry's first import).
 */
import type { Contents } from '@jupyterlab/services';
import { pageDrafts } from './drafts.js';
import { KERNEL_WS_PROTOCOL } from '../../shared/rest.js';
import { apiBase, EARLY_GLOBAL, notebookRequest, requestKey, startEarly, type EarlySession, type EarlyStart } from './early-start.js';

export { REQUEST_INIT, TOKEN_KEY, type EarlySession } from './early-start.js';

/** A response not claimed by then is left alone (the page asks again, fresh). */
const KEEP_MS = 10_000;

/**
 * What the inlined script started (taken once, off the window), else the same started now. Only an own data property
 * holding the inlined script's shape counts: a named element (DOM clobbering) is not one.
 */
function takeStart(): EarlyStart | undefined {
  const host = window as unknown as Record<string, unknown>;
  const own = Object.getOwnPropertyDescriptor(host, EARLY_GLOBAL);
  delete host[EARLY_GLOBAL];
  const value: unknown = own && 'value' in own ? own.value : undefined;
  const inlined = typeof value === 'object' && value !== null && (value as Partial<EarlyStart>).gets instanceof Map ? (value as EarlyStart) : undefined;
  const start = own ? inlined : startEarly();
  const path = new URL(window.location.href).searchParams.get('path');
  if (path) pageDrafts.prefetch(path);
  return start;
}

// Outside a page (Node tests load connection.ts, which imports this module) there is nothing to send or take.
const early: EarlyStart | undefined = typeof window !== 'undefined' ? takeStart() : undefined;

/**
 * For services' `WebSocket` setting: the socket opened early for these channels when `url` asks for the same kernel
 * with the same token and subprotocol (once, and only while it is open or opening), else undefined (services opens
 * its own). An open socket gets its `open` event again, and the messages it received meanwhile, once services has
 * set its handlers (right after construction); a socket still opening gets its own `open` event.
 */
export function adoptEarlySocket(url: string | URL, protocols?: string | string[]): WebSocket | undefined {
  const socketEntry = early?.socket;
  if (!early || !socketEntry) return undefined;
  early.socket = undefined;
  const wanted = new URL(url);
  const asked = typeof protocols === 'string' ? [protocols] : (protocols ?? []);
  const same =
    wanted.origin === socketEntry.url.origin &&
    wanted.pathname === socketEntry.url.pathname &&
    (wanted.searchParams.get('token') ?? '') === (socketEntry.url.searchParams.get('token') ?? '') &&
    asked.includes(KERNEL_WS_PROTOCOL);
  const { socket } = socketEntry;
  socket.removeEventListener('message', socketEntry.keep);
  if (!same || socket.readyState > WebSocket.OPEN) {
    socket.close();
    return undefined;
  }
  if (socket.readyState === WebSocket.OPEN) {
    queueMicrotask(() => {
      socket.dispatchEvent(new Event('open'));
      for (const data of socketEntry.received) socket.dispatchEvent(new MessageEvent('message', { data }));
    });
  }
  return socket;
}

/**
 * The session the page asked for at its start, for `path` (once), or undefined: the server refused it (a server
 * without the Nighthawk kernelspec), answered something else, or the page sent none; the app then finds or
 * starts the session as usual.
 */
export function earlySession(path: string): Promise<EarlySession | undefined> {
  const request = early?.session;
  if (!early || !request || early.path !== path) return Promise.resolve(undefined);
  early.session = undefined;
  return performance.now() - request.at < KEEP_MS ? request.answer : Promise.resolve(undefined);
}

/** The early response for this request (once), or undefined: then it is fetched as usual. */
export function earlyResponse(request: Request): Promise<Response> | undefined {
  if (!early || early.gets.size === 0 || request.method !== 'GET') return undefined;
  const key = requestKey('GET', new URL(request.url));
  const entry = early.gets.get(key);
  if (!entry) return undefined;
  early.gets.delete(key);
  return performance.now() - entry.at < KEEP_MS ? entry.response : undefined;
}

/**
 * The notebook file from its early response, when that came back ok, so the first draw need not wait for
 * services. Anything else (no early request, an error status) is left to services, which reports it as usual.
 */
export async function earlyNotebook(path: string): Promise<Contents.IModel | undefined> {
  if (!early || early.gets.size === 0) return undefined;
  const gets = early.gets;
  const key = requestKey('GET', new URL(notebookRequest(path), apiBase()));
  const entry = gets.get(key);
  if (!entry || performance.now() - entry.at >= KEEP_MS) return undefined;
  const response = await entry.response.catch(() => undefined);
  if (!response?.ok || gets.get(key) !== entry) return undefined;
  gets.delete(key);
  const model: unknown = await response.json().catch(() => undefined);
  return isContentsModel(model) ? model : undefined;
}

/** The fields services' own validation requires of a contents model (contents/validate.ts). */
function isContentsModel(value: unknown): value is Contents.IModel {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  return ['name', 'path', 'type', 'created', 'last_modified'].every((k) => typeof m[k] === 'string') && typeof m.content === 'object';
}
