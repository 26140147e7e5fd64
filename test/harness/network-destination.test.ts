/**
 * Where an audited network call goes (harness/network-destination.ts), read so that a model's arguments cannot
 * answer one place to the check and another to Node: anything undecidable is undefined (the allowance refuses it).
 */
import { describe, expect, it } from 'vitest';
import { admits, destinationOf, placeOfOrigin } from '../../kernel/src/harness/network-destination.js';

describe('network destinations', () => {
  it('reads origins with their default ports, IPv6 without brackets, and nothing that is not http(s) or ws(s)', () => {
    expect(placeOfOrigin('https://API.OpenAI.com')).toEqual({ hostname: 'api.openai.com', port: 443 });
    expect(placeOfOrigin('http://127.0.0.1:4010')).toEqual({ hostname: '127.0.0.1', port: 4010 });
    expect(placeOfOrigin('http://[::1]:4010')).toEqual({ hostname: '::1', port: 4010 });
    expect(placeOfOrigin('file:///etc/passwd')).toBeUndefined();
    expect(placeOfOrigin('not a url')).toBeUndefined();
  });

  it('reads fetch, net, tls, http and dns calls as Node and undici make them', () => {
    expect(destinationOf('fetch', ['http://127.0.0.1:4010/v1/chat'])).toEqual({ hostname: '127.0.0.1', port: 4010 });
    expect(destinationOf('fetch', [new URL('https://example.com/x')])).toEqual({ hostname: 'example.com', port: 443 });
    expect(destinationOf('fetch', [new Request('http://example.com:81/')])).toEqual({ hostname: 'example.com', port: 81 });
    expect(destinationOf('net.Socket.connect', [[{ host: '::1', port: '4010' }, () => undefined]])).toEqual({ hostname: '::1', port: 4010 });
    expect(destinationOf('net.Socket.connect', [4010, '127.0.0.1'])).toEqual({ hostname: '127.0.0.1', port: 4010 });
    expect(destinationOf('tls.connect', [{ host: 'api.openai.com', port: 443, servername: 'api.openai.com' }])).toEqual({ hostname: 'api.openai.com', port: 443 });
    expect(destinationOf('https.request', ['https://example.com/path'])).toEqual({ hostname: 'example.com', port: 443 });
    expect(destinationOf('http.request', [{ hostname: 'example.com', path: '/x' }])).toEqual({ hostname: 'example.com', port: 80 });
    expect(destinationOf('dns.lookup', ['example.com'])).toEqual({ hostname: 'example.com', port: 0 });
    expect(admits([{ hostname: 'example.com', port: 443 }], { hostname: 'example.com', port: 0 })).toBe(true);
    expect(admits([{ hostname: 'example.com', port: 443 }], { hostname: 'example.com', port: 80 })).toBe(false);
  });

  it('decides nothing where the arguments could answer differently to Node: accessors, proxies, look-alikes, socket paths, overrides', () => {
    let reads = 0;
    const flipping = Object.defineProperty({ port: 4010 }, 'host', { get: () => (reads++ === 0 ? '127.0.0.1' : 'evil.example') });
    expect(destinationOf('net.Socket.connect', [flipping])).toBeUndefined();
    expect(reads).toBe(0);
    expect(destinationOf('net.Socket.connect', [new Proxy({ host: '127.0.0.1', port: 4010 }, {})])).toBeUndefined();
    expect(destinationOf('fetch', [{ href: 'http://127.0.0.1:4010/', toString: () => 'http://127.0.0.1:4010/' }])).toBeUndefined();
    expect(destinationOf('net.Socket.connect', [{ path: '/run/docker.sock' }])).toBeUndefined();
    expect(destinationOf('http.request', [{ socketPath: '/run/docker.sock', hostname: '127.0.0.1' }])).toBeUndefined();
    expect(destinationOf('http.request', ['http://127.0.0.1:4010/', { hostname: 'evil.example' }])).toBeUndefined();
    // A host put on Object.prototype is what Node would read for options without their own: it counts.
    const options = Object.create({ hostname: 'evil.example' }) as Record<string, unknown>;
    options.host = '127.0.0.1';
    options.port = 4010;
    expect(destinationOf('http.request', [options])).toEqual({ hostname: 'evil.example', port: 4010 });
    expect(destinationOf('dgram.Socket.send', ['x'])).toBeUndefined();
  });
});
