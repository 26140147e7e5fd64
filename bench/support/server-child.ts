/**
 * A notebook server in a process of its own, for benchmarks that drive a browser: deployed, the server never
 * shares its event loop with a Playwright client, whose page polling would otherwise delay its replies.
 * argv[2]: JSON ServerOptions. Answers the parent's requests (see server-process.ts) over IPC.
 */
import { startServer, type ServerOptions } from '../../kernel/src/server/index.js';
import type { ServerRequest } from './server-process.js';

const options = JSON.parse(process.argv[2] ?? '{}') as ServerOptions;
const server = await startServer({ ...options, log: () => {} });
process.send!({ kind: 'started', url: server.url, baseUrl: server.baseUrl, token: server.token });
process.on('message', (request: ServerRequest) => {
  void (async () => {
    if (request.op === 'waitForSpare') await server.kernels.waitForSpare();
    if (request.op === 'shutdownKernels') for (const k of server.kernels.list()) await server.kernels.shutdown(k.id);
    if (request.op === 'close') await server.close();
    process.send!({ kind: 'done', id: request.id });
    if (request.op === 'close') process.exit(0);
  })();
});
process.on('disconnect', () => void server.close().finally(() => process.exit(0)));
