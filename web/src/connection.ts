/**
 * Server settings from the page: same origin as the page, token from `?token=` (kept in
 * sessionStorage, then removed from the address bar so it does not end up in history or screenshots).
 */
import { ServerConnection } from '@jupyterlab/services';

const TOKEN_KEY = 'nighthawk.token';

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

export function serverSettings(token: string, loc: Location = window.location): ServerConnection.ISettings {
  const base = new URL('./', loc.href);
  // Served from web/dist at the server root, or by Vite in dev: the API lives at the origin root.
  const baseUrl = `${base.origin}/`;
  const wsUrl = `${base.protocol === 'https:' ? 'wss:' : 'ws:'}//${base.host}/`;
  return ServerConnection.makeSettings({
    baseUrl,
    wsUrl,
    token,
    // Browsers cannot set headers on a WebSocket, so the token must ride in the URL.
    appendToken: true,
  });
}
