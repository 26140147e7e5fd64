import { beforeAll, describe, expect, test } from 'vitest';
import { webConnection, type PageLocation, type WebConnection } from './web-modules.js';

const at = (href: string): PageLocation => ({ href });
let pageServer: WebConnection['pageServer'];
let serverSettings: WebConnection['serverSettings'];

beforeAll(async () => {
  ({ pageServer, serverSettings } = await webConnection());
});

describe('the web notebook server option', () => {
  test('without ?server= the API is the page origin root', () => {
    const s = serverSettings('t', at('https://nb.example:8443/app/?path=a.ipynb'));
    expect(s.baseUrl).toBe('https://nb.example:8443/');
    expect(s.wsUrl).toBe('wss://nb.example:8443/');
  });

  test('?server= points the API and WebSocket at that Jupyter server, keeping its base path (JupyterHub user servers)', () => {
    const s = serverSettings('t', at('http://localhost:5173/?server=' + encodeURIComponent('https://hub.example/user/ada?x=1')));
    expect(s.baseUrl).toBe('https://hub.example/user/ada/');
    expect(s.wsUrl).toBe('wss://hub.example/user/ada/');
    expect(s.token).toBe('t');
    expect(s.appendToken).toBe(true);
  });

  test('a ?server= that is not an http(s) URL is ignored', () => {
    expect(pageServer(at('http://localhost:5173/?server=javascript:alert(1)'))).toBeUndefined();
    expect(pageServer(at('http://localhost:5173/?server=not a url'))).toBeUndefined();
    expect(serverSettings('t', at('http://localhost:5173/?server=file:///etc')).baseUrl).toBe('http://localhost:5173/');
  });
});
