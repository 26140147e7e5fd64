/**
 * The first requests of a page opened on a notebook (`?path=`): the notebook file's GET and the notebook's
 * session POST, then, once the session names its kernel, the kernel's WebSocket (the server tells a new connection
 * the kernel's state at once, so the page knows it as services takes the socket). Sent by a script inlined in index.html's head (early-inline.ts, built by vite.config.ts), so they leave
 * while the page's own scripts are still downloading; early-requests.ts hands their answers to the app. Where that
 * script did not run (`npm run dev` before a build, a page without it), early-requests.ts calls startEarly itself.
 *
 * The session is a POST with no session list asked for first: a Jupyter server answers a session POST for a path
 * that has one with that session, so the POST finds or starts it. Only when the server refuses it (no Nighthawk
 * kernelspec there) does the page list sessions and kernelspecs to choose (kernel-session.ts). A page pointed at
 * another server (`?server=`) sends none.
 *
 * Imports only constants and the load marks: it runs as a classic script before anything else of the page.
 */
import type { Session } from '@jupyterlab/services';
import { KERNEL_WS_PROTOCOL, NIGHTHAWK_KERNEL, SESSION_CREATED_HEADER } from '../../shared/rest.js';
import { markLoad } from './load-marks.js';

/** Where the page keeps its token (connection.ts moves `?token=` there). */
export const TOKEN_KEY = 'nighthawk.token';
/** What every request of the page carries besides its token (the server refuses state-changing requests without the JSON type). */
export const REQUEST_INIT = { cache: 'no-store', credentials: 'same-origin', headers: { 'Content-Type': 'application/json' } } as const satisfies RequestInit;
/** The window property the inlined script leaves its requests on, for early-requests.ts to take (once). */
export const EARLY_GLOBAL = '__nighthawkEarly';

/** The notebook's session from the page's first POST; `found`: it was running before (not started by the POST). */
export interface EarlySession {
  model: Session.IModel;
  found: boolean;
}

/** The kernel channels' socket opened early, with the messages it received until services takes it. */
export interface EarlySocket {
  url: URL;
  socket: WebSocket;
  received: unknown[];
  keep: (ev: MessageEvent) => void;
}

/** What the early requests left for the app; each part is taken once. */
export interface EarlyStart {
  path: string;
  /** GETs by requestKey. */
  gets: Map<string, { response: Promise<Response>; at: number }>;
  session: { answer: Promise<EarlySession | undefined>; at: number } | undefined;
  socket: EarlySocket | undefined;
}

/** A socket not taken by then (the page chose another session, or never connected) is closed, not left open on the kernel. */
const KEEP_SOCKET_MS = 10_000;

/** Method, path and query of a request, without the bare timestamp services appends to defeat caches. */
export function requestKey(method: string, url: URL): string {
  const params = [...url.searchParams].filter(([name, value]) => !(value === '' && /^\d+$/.test(name))).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${method} ${url.origin}${url.pathname}?${new URLSearchParams(params).toString()}`;
}

/** The page's own server (no `?server=`): the API at the origin root. */
export const apiBase = (): URL => new URL('/', window.location.origin);

/** The notebook file's GET as services sends it for `contents.get(path, { type: 'notebook', content: true })`. */
export const notebookRequest = (path: string): string => `api/contents/${path.split('/').map(encodeURIComponent).join('/')}?type=notebook&content=1&hash=0`;

/** Sends the page's first requests; undefined when the page opened no notebook or another server. */
export function startEarly(): EarlyStart | undefined {
  const here = new URL(window.location.href);
  const path = here.searchParams.get('path');
  if (!path || here.searchParams.has('server')) return undefined;
  const token = here.searchParams.get('token') ?? sessionStorage.getItem(TOKEN_KEY) ?? '';
  // As services sends them (serverconnection.ts handleRequest, with connection.ts's settings).
  const headers: Record<string, string> = { ...REQUEST_INIT.headers };
  if (token) headers['Authorization'] = `token ${token}`;
  const start: EarlyStart = { path, gets: new Map(), session: undefined, socket: undefined };
  const url = new URL(notebookRequest(path), apiBase());
  const response = fetch(url, { ...REQUEST_INIT, headers });
  response.catch(() => {});
  start.gets.set(requestKey('GET', url), { response, at: performance.now() });
  const session = fetch(new URL('api/sessions', apiBase()), {
    ...REQUEST_INIT,
    method: 'POST',
    headers,
    body: JSON.stringify({ path, type: 'notebook', name: path.split('/').pop() ?? path, kernel: { name: NIGHTHAWK_KERNEL } }),
  });
  session.catch(() => {});
  const answer = sessionAnswer(path, session);
  start.session = { answer, at: performance.now() };
  void answer.then((found) => {
    if (found?.model.kernel) openEarlySocket(start, found.model.kernel.id, token);
  });
  markLoad('requests-sent');
  return start;
}

/** The channels URL services builds for a kernel (kernel/default.ts), with a session id of its own. */
function openEarlySocket(start: EarlyStart, kernelId: string, token: string): void {
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
  const entry: EarlySocket = { url, socket, received, keep };
  start.socket = entry;
  setTimeout(() => {
    if (start.socket !== entry) return;
    start.socket = undefined;
    socket.close();
  }, KEEP_SOCKET_MS);
}

async function sessionAnswer(path: string, session: Promise<Response>): Promise<EarlySession | undefined> {
  const response = await session.catch(() => undefined);
  if (!response?.ok) return undefined;
  const model: unknown = await response.json().catch(() => undefined);
  if (!isSessionModel(model) || model.path !== path) return undefined;
  // A server that does not say it created the session may have found it: a found session is never shut down.
  return { model, found: response.headers.get(SESSION_CREATED_HEADER) !== 'created' };
}

/** The fields services' own validation requires of a session model with a kernel (session/validate.ts). */
function isSessionModel(value: unknown): value is Session.IModel {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  const kernel = m.kernel as Record<string, unknown> | null | undefined;
  return ['id', 'path', 'name', 'type'].every((k) => typeof m[k] === 'string') && typeof kernel === 'object' && kernel !== null && typeof kernel.id === 'string' && typeof kernel.name === 'string';
}
