/**
 * Everything the page takes from @jupyterlab/services (~170 KB of script), in a chunk of its own: the notebook
 * is drawn from the early response (early-requests.ts) while this chunk loads and evaluates. Only
 * services-loader.ts imports it, dynamically; index.html preloads it (vite.config.ts).
 */
import { PageConfig } from '@jupyterlab/coreutils';
import { BACKGROUND_REQUESTS } from './background-requests.js';

// From the modules that define them, not the package index: the index (CommonJS, so not tree-shaken) would
// bring in terminals, settings, workspaces, users, events and the managers' polling, none of which the page uses.
export { ContentsManager } from '@jupyterlab/services/lib/contents';
export { KernelConnection } from '@jupyterlab/services/lib/kernel/default';
export * as KernelAPI from '@jupyterlab/services/lib/kernel/restapi';
export * as KernelSpecAPI from '@jupyterlab/services/lib/kernelspec/restapi';
export * as SessionAPI from '@jupyterlab/services/lib/session/restapi';
// The class SessionManager.connectTo builds.
export { SessionConnection } from '@jupyterlab/services/lib/session/default';
export { pageToken, serverSettings } from './connection.js';

// Before any kernel connection exists: every connection reads the option when a status message arrives.
PageConfig.setOption('untracked_message_types', JSON.stringify(BACKGROUND_REQUESTS));
