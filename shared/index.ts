/** Repo-root shared contract between the kernel server and the web notebook. Imports only zod. */
export * from './mime.js';
export * from './rest.js';
export * from './protocol.js';
export * from './nbformat.js';
export * from './ui-types.js';
export * from './ledger-events.js';
export { multilineText } from './multiline.js';
