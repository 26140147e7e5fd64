/**
 * The first REST requests of a page opened on a notebook (`?path=`), sent before the rest of the page's
 * script has evaluated: the notebook file (and the notebook's draft, from IndexedDB) and the notebook's kernel
 * session. The notebook's response is handed once to the identical GET that services would make
 * (connection.ts passes `earlyResponse` as its fetch), and is read without services (earlyNotebook), so the
 * first draw does not wait for that chunk. A page pointed at another server (`?server=`) sends none.
 *
 * The session is a POST (earlySession), with no session list asked for first: a Jupyter server answers a
 * session POST for a path that has one with that session, so the POST either finds or starts it, and the
 * kernel starts (or a warm one is handed out) while the page evaluates. Only when the server refuses it (no
 * Nighthawk kernelspec there) does the page list sessions and kernelspecs to choose (kernel-session.ts).
 *
 * Once the session's answer names its kernel, the kernel's WebSocket is opened too (openEarlySocket): the
 * handshake happens while the page evaluates and draws, and services' KernelConnection is handed that socket
 * (adoptEarlySocket, through the page's settings) instead of opening its own after the services chunk loaded.
 */
import type { Contents, Session } from '@jupyterlab/services';
import { KERNEL_WS_PROTOCOL, NIGHTHAWK_KERNEL, SESSION_CREATED_HEADER } from '../../shared/rest.js';
import { pageDrafts } from './drafts.js';
import { markLoad } from './load-marks.js';

/** Where the page keeps its token (connection.ts moves `?token=` there). */
export const TOKEN_KEY = 'nighthawk.token';
/** What every request of the page carries besides its token (the server refuses state-changing requests without the JSON type). */
export const REQUEST_INIT = { cache: 'no-store', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' } } as const satisfies RequestInit;
/** A response not claimed by then is left alone (the page asks again, fresh). */
const KEEP_MS = 10_000;

const early = new Map<string, { response: Promise<Response>; at: number }>();

/** The notebook's session from the page's first POST; `found`: it was running before (not started by the POST). */
export interface EarlySession {
  model: Session.IModel;
  found: boolean;
}
let earlySessionRequest: { path: string; answer: Promise<EarlySession | undefined>; at: number } | undefined;

/** Method, path and query of a request, without the bare timestamp services appends to defeat caches. */
function requestKey(method: string, url: URL): string {
  const params = [...url.searchParams].filter(([name, value]) => !(value === '' && /^\d+$/.test(name))).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${method} ${url.origin}${url.pathname}?${new URLSearchParams(params).toString()}`;
}

/** The page's own server (no `?server=`): the API at the origin root. */
const apiBase = (): URL => new URL('/', window.location.origin);

/** The notebook file's GET as services sends it for `contents.get(path, { type: 'notebook', content: true })`. */
const notebookRequest = (path: string): string => `api/contents/${path.split('/').map(encodeURIComponent).join('/')}?type=notebook&content=1&hash=0`;

function start(): void {
  const here = new URL(window.location.href);
  const path = here.searchParams.get('path');
  if (!path) return;
  pageDrafts.prefetch(path);
  if (here.searchParams.has('server')) return;
  const token = here.searchParams.get('token') ?? sessionStorage.getItem(TOKEN_KEY) ?? '';
  // As services sends them (serverconnection.ts handleRequest, with connection.ts's settings).
  const headers: Record<string, string> = { ...REQUEST_INIT.headers };
  if (token) headers['Authorization'] = `token ${token}`;
  const get = (relative: string): void => {
    const url = new URL(relative, apiBase());
    const response = fetch(url, { ...REQUEST_INIT, headers });
    response.catch(() => {});
    early.set(requestKey('GET', url), { response, at: performance.now() });
  };
  get(notebookRequest(path));
  const session = fetch(new URL('api/sessions', apiBase()), {
    ...REQUEST_INIT,
    method: 'POST',
    headers,
    body: JSON.stringify({ path, type: 'notebook', name: path.split('/').pop() ?? path, kernel: { name: NIGHTHAWK_KERNEL } }),
  });
  session.catch(() => {});
  const answer = sessionAnswer(path, session);
  earlySessionRequest = { path, answer, at: performance.now() };
  void answer.then((found) => {
    if (found?.model.kernel) openEarlySocket(found.model.kernel.id, token);
  });
  markLoad('requests-sent');
}

/** The kernel channels' socket opened with the page's first requests, until services takes it (once). */
let earlySocket: { url: URL; socket: WebSocket; received: unknown[]; keep: (ev: MessageEvent) => void } | undefined;

/** The channels URL services builds for a kernel (kernel/default.ts), with a session id of its own. */
function openEarlySocket(kernelId: string, token: string): void {
  const url = new URL(`api/kernels/${encodeURIComponent(kernelId)}/channels`, apiBase());
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('session_id', crypto.randomUUID());
  if (token) url.searchParams.set('token', token);
  let socket: WebSocket;
  try {
    socket = new WebSocket(url, [KERNEL_WS_PROTOCOL]);
  } catch {
    return;
  }
  // As services sets it on its sockets: binary frames as ArrayBuffers, also for those received before it takes this one.
  socket.binaryType = 'arraybuffer';
  const received: unknown[] = [];
  const keep = (ev: MessageEvent): void => void received.push(ev.data);
  socket.addEventListener('message', keep);
  markLoad('kernel-socket');
  const entry = { url, socket, received, keep };
  earlySocket = entry;
  // Not taken by then (the page chose another session, or never connected): closed, not left open on the kernel.
  setTimeout(() => {
    if (earlySocket !== entry) return;
    earlySocket = undefined;
    socket.close();
  }, KEEP_MS);
}

/**
 * For services' `WebSocket` setting: the socket opened early for these channels when `url` asks for the same kernel
 * with the same token and subprotocol (once, and only while it is open or opening), else undefined (services opens
 * its own). An open socket gets its `open` event again, and the messages it received meanwhile, once services has
 * set its handlers (right after construction); a socket still opening gets its own `open` event.
 */
export function adoptEarlySocket(url: string | URL, protocols?: string | string[]): WebSocket | undefined {
  const early = earlySocket;
  if (!early) return undefined;
  earlySocket = undefined;
  const wanted = new URL(url);
  const asked = typeof protocols === 'string' ? [protocols] : (protocols ?? []);
  const same =
    wanted.origin === early.url.origin &&
    wanted.pathname === early.url.pathname &&
    (wanted.searchParams.get('token') ?? '') === (early.url.searchParams.get('token') ?? '') &&
    asked.includes(KERNEL_WS_PROTOCOL);
  const { socket } = early;
  socket.removeEventListener('message', early.keep);
  if (!same || socket.readyState > WebSocket.OPEN) {
    socket.close();
    return undefined;
  }
  if (socket.readyState === WebSocket.OPEN) {
    queueMicrotask(() => {
      socket.dispatchEvent(new Event('open'));
      for (const data of early.received) socket.dispatchEvent(new MessageEvent('message', { data }));
    });
  }
  return socket;
}

async function sessionAnswer(path: string, session: Promise<Response>): Promise<EarlySession | undefined> {
  const response = await session.catch(() => undefined);
  if (!response?.ok) return undefined;
  const model: unknown = await response.json().catch(() => undefined);
  if (!isSessionModel(model) || model.path !== path) return undefined;
  // A server that does not say it created the session may have found it: a found session is never shut down.
  return { model, found: response.headers.get(SESSION_CREATED_HEADER) !== 'created' };
}

/**
 * The session the page asked for at its start, for `path` (once), or undefined: the server refused it (a server
 * without the Nighthawk kernelspec), answered something else, or the page sent none; the app then finds or
 * starts the session as usual.
 */
export function earlySession(path: string): Promise<EarlySession | undefined> {
  const request = earlySessionRequest;
  if (!request || request.path !== path) return Promise.resolve(undefined);
  earlySessionRequest = undefined;
  return performance.now() - request.at < KEEP_MS ? request.answer : Promise.resolve(undefined);
}

/** The early response for this request (once), or undefined: then it is fetched as usual. */
export function earlyResponse(request: Request): Promise<Response> | undefined {
  if (early.size === 0 || request.method !== 'GET') return undefined;
  const key = requestKey('GET', new URL(request.url));
  const entry = early.get(key);
  if (!entry) return undefined;
  early.delete(key);
  return performance.now() - entry.at < KEEP_MS ? entry.response : undefined;
}

/**
 * The notebook file from its early response, when that came back ok, so the first draw need not wait for
 * services. Anything else (no early request, an error status) is left to services, which reports it as usual.
 */
export async function earlyNotebook(path: string): Promise<Contents.IModel | undefined> {
  if (early.size === 0) return undefined;
  const key = requestKey('GET', new URL(notebookRequest(path), apiBase()));
  const entry = early.get(key);
  if (!entry || performance.now() - entry.at >= KEEP_MS) return undefined;
  const response = await entry.response.catch(() => undefined);
  if (!response?.ok || early.get(key) !== entry) return undefined;
  early.delete(key);
  const model: unknown = await response.json().catch(() => undefined);
  return isContentsModel(model) ? model : undefined;
}

/** The fields services' own validation requires of a contents model (contents/validate.ts). */
function isContentsModel(value: unknown): value is Contents.IModel {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  return ['name', 'path', 'type', 'created', 'last_modified'].every((k) => typeof m[k] === 'string') && typeof m.content === 'object';
}

/** The fields services' own validation requires of a session model with a kernel (session/validate.ts). */
function isSessionModel(value: unknown): value is Session.IModel {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  const kernel = m.kernel as Record<string, unknown> | null | undefined;
  return ['id', 'path', 'name', 'type'].every((k) => typeof m[k] === 'string') && typeof kernel === 'object' && kernel !== null && typeof kernel.id === 'string' && typeof kernel.name === 'string';
}

// Outside a page (Node tests load connection.ts, which imports this module) there is nothing to send.
if (typeof window !== 'undefined') start();
