/**
 * The test suite's fake Jupyter server (web-fake-jupyter-server.ts) in a process of its own, for web.bench.ts: as
 * with server-child.ts, a deployed server never shares its event loop with the Playwright client driving the
 * page, whose page polling and protocol traffic would otherwise delay the server's replies to the page under test.
 * argv[2]: JSON FakeServerChildOptions. Sends `{ url }` once listening; exits when the parent disconnects.
 */
import { NighthawkMime } from '../../shared/mime.js';
import { startFakeJupyterServer } from '../../test/support/web-fake-jupyter-server.js';
import { bigLedger } from '../../test/web/ledger-fixture.js';

export interface FakeServerChildOptions {
  token: string;
  notebooksDir: string;
  staticDir: string;
}

const options = JSON.parse(process.argv[2] ?? '{}') as FakeServerChildOptions;
const ledger = bigLedger();
// Every cell displays the 10,000-entry ledger (the ledger-view figures run one cell; the load figures run none).
const server = await startFakeJupyterServer({
  ...options,
  script: (ctx) => ctx.display({ [NighthawkMime.ledger]: { entries: ledger.entries }, 'text/plain': 'ledger' }),
});
process.send!({ url: server.url });
process.on('disconnect', () => void server.close().finally(() => process.exit(0)));
