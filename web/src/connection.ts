/**
 * Server settings from the page: by default the same origin as the page; `?server=<http(s) URL>` points the
 * notebook at another Jupyter server instead (a real `jupyter server` running the Nighthawk kernelspec, which
 * must allow this page's origin). The token comes from `?token=` (kept in sessionStorage, then removed from
 * the address bar so it does not end up in history or screenshots).
 */
import { ServerConnection } from '@jupyterlab/services/lib/serverconnection';
import { adoptEarlySocket, earlyResponse, REQUEST_INIT, TOKEN_KEY } from './early-requests.js';

export function pageToken(loc: Location = window.location, storage: Storage = sessionStorage): string {
  const url = new URL(loc.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    storage.setItem(TOKEN_KEY, fromUrl);
    url.searchParams.delete('token');
    history.replaceState(history.state, '', url.toString());
    return fromUrl;
  }
  return storage.getItem(TOKEN_KEY) ?? '';
}

/** The `?server=` base URL (http or https, with a trailing slash), or undefined for the page's own origin. */
export function pageServer(loc: Pick<Location, 'href'> = window.location): URL | undefined {
  const raw = new URL(loc.href).searchParams.get('server');
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

export function serverSettings(token: string, loc: Location = window.location): ServerConnection.ISettings {
  // Served from web/dist at the server root, or by Vite in dev: the API lives at the origin root.
  const base = pageServer(loc) ?? new URL('/', new URL('./', loc.href).origin);
  const baseUrl = base.href;
  const wsUrl = `${base.protocol === 'https:' ? 'wss:' : 'ws:'}//${base.host}${base.pathname}`;
  return ServerConnection.makeSettings({
    baseUrl,
    wsUrl,
    token,
    // Browsers cannot set headers on a WebSocket, so the token must ride in the URL.
    appendToken: true,
    init: { ...REQUEST_INIT, headers: { ...REQUEST_INIT.headers } },
    // The page's first GETs were sent before this script evaluated: their responses answer the same requests.
    fetch: ((input: RequestInfo | URL, init?: RequestInit) =>
      (input instanceof Request && init === undefined ? earlyResponse(input) : undefined) ?? fetch(input, init)) as typeof fetch,
    // The kernel's channels were opened with those requests: the first connection takes that socket.
    WebSocket: PageWebSocket,
  });
}

/** A WebSocket constructor that gives the socket opened early when it was opened for the same channels. */
const PageWebSocket = function PageWebSocket(url: string | URL, protocols?: string | string[]): WebSocket {
  return adoptEarlySocket(url, protocols) ?? new WebSocket(url, protocols);
} as unknown as typeof WebSocket;
