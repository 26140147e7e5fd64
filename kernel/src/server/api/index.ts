/** The Jupyter server API: REST, kernel WebSocket channels, contents and sessions, static files, request checks. */
export { startServer, type NighthawkServer, type ServerOptions } from './server.js';
export { ContentsStore } from './contents.js';
export { prepareWorkspace, WORKSPACE_MARKER } from './workspace.js';
export type { ChannelStats } from './channels.js';
export { chooseToken, TokenSourceError, TOKEN_ENV, type TokenChoice } from './token-source.js';
