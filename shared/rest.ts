/** Names the kernel server and the web notebook agree on over the Jupyter REST API (no zod: the page's entry imports it). */

/** The kernelspec name of the Nighthawk kernel (`nighthawk-ts kernel install`, the server's only kernelspec), also recorded in saved notebooks. */
export const NIGHTHAWK_KERNEL = 'nighthawk';

/**
 * Response header of a session POST: `created` or `found`. Not part of the Jupyter API (its server answers 201
 * either way); the page, which starts its session before it has read the session list, decides from it whether
 * the session is its own to shut down when the notebook cannot be opened.
 */
export const SESSION_CREATED_HEADER = 'Nighthawk-Session';

/**
 * Execute-request metadata naming the run (run all, run above, run below) a request belongs to: once one of them
 * fails with stop_on_error, the kernel aborts the rest whenever they reach it.
 */
export const EXECUTE_BATCH_METADATA = 'nighthawk_batch';

/** The kernel WebSocket subprotocol of Jupyter Server 2 (binary frames), which the server selects when offered. */
export const KERNEL_WS_PROTOCOL = 'v1.kernel.websocket.jupyter.org';
