import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

export interface TestServer {
  readonly port: number;
  readonly origin: string;
  readonly requests: SeenRequest[];
  /** TCP connections accepted (a refused request must not even connect). */
  connections: number;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1, port 0, that records what it received. */
export async function startServer(handler: (request: SeenRequest, response: http.ServerResponse) => void): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(seen);
      handler(seen, res);
    });
  });
  const state: TestServer = {
    port: 0,
    origin: '',
    requests,
    connections: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('connection', () => state.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, { port, origin: `http://127.0.0.1:${port}` });
}
