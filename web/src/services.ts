/**
 * Everything the page takes from @jupyterlab/services (~170 KB of script), in a chunk of its own: the notebook
 * is drawn from the early response (early-requests.ts) while this chunk loads and evaluates. Only
 * services-loader.ts imports it, dynamically; index.html preloads it (vite.config.ts).
 */
import { PageConfig } from '@jupyterlab/coreutils';
import { BACKGROUND_REQUESTS } from './background-requests.js';

export { ContentsManager, KernelAPI, KernelConnection, KernelSpecAPI, SessionAPI } from '@jupyterlab/services';
// Not re-exported by the package index; the class SessionManager.connectTo builds.
export { SessionConnection } from '@jupyterlab/services/lib/session/default';
export { pageToken, serverSettings } from './connection.js';

// Before any kernel connection exists: every connection reads the option when a status message arrives.
PageConfig.setOption('untracked_message_types', JSON.stringify(BACKGROUND_REQUESTS));
