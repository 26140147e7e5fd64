/** Builders for kernel messages and the IPC envelope between the server and a kernel process. */
import { randomUUID } from 'node:crypto';
import type { Channel, ClientMessage, JsonObject, KernelMessage, MessageHeader, ParentHeader } from '../../../../shared/index.js';
import { PROTOCOL_VERSION } from '../../../../shared/index.js';

export function makeHeader(msgType: string, session: string): MessageHeader {
  return {
    msg_id: randomUUID(),
    msg_type: msgType,
    username: 'kernel',
    session,
    date: new Date().toISOString(),
    version: PROTOCOL_VERSION,
  };
}

export function makeMessage<C extends object>(
  channel: Channel,
  msgType: string,
  content: C,
  parent: ParentHeader,
  session: string,
  metadata: JsonObject = {},
): KernelMessage<C> {
  return { channel, header: makeHeader(msgType, session), parent_header: parent, metadata, content };
}

/** Reply type for a request type: `execute_request` → `execute_reply`. */
export function replyType(msgType: string): string {
  return msgType.endsWith('_request') ? msgType.slice(0, -'_request'.length) + '_reply' : msgType + '_reply';
}

/**
 * A request answered outside the kernel runtime, framed as a kernel frames every request (ipykernel, KernelRuntime):
 * busy and idle on iopub around the reply on the request's channel. A client's request is done only at that idle
 * (@jupyterlab/services' futures wait for both the reply and it).
 */
export function answerFrames(request: Pick<ClientMessage, 'channel' | 'header'>, content: object, session: string): { busy: KernelMessage<object>; reply: KernelMessage<object>; idle: KernelMessage<object> } {
  const parent = request.header;
  return {
    busy: makeMessage('iopub', 'status', { execution_state: 'busy' }, parent, session),
    reply: makeMessage(request.channel === 'control' ? 'control' : 'shell', replyType(parent.msg_type), content, parent, session),
    idle: makeMessage('iopub', 'status', { execution_state: 'idle' }, parent, session),
  };
}

/** Server → kernel process. `route` names the WebSocket connection replies go back to. */
export type ToKernel =
  | { kind: 'request'; route: string; msg: ClientMessage }
  /** Stops the cell executing request `msgId` if it is awaiting; SIGINT covers synchronous code. */
  | { kind: 'interrupt'; msgId: string }
  /**
   * Converts (never runs) the cell the kernel will most likely run first, the first code cell of the notebook it
   * was started for, so that cell's execute finds the conversion cached. Nothing is counted or declared.
   */
  | { kind: 'prepare'; code: string };

/** Kernel process → server. `route: null` is a broadcast (iopub). */
export type FromKernel =
  | { kind: 'ready' }
  /** The process takes messages (kernel_info is answered); 'ready' follows once the compiler and host loaded. */
  | { kind: 'accepting' }
  /** The cell of execute request `msgId` entered its SIGINT-sensitive region. */
  | { kind: 'executing'; msgId: string }
  /** The interrupt message for `msgId` was handled: the kernel was responsive, so no SIGINT is needed. */
  | { kind: 'interrupt-handled'; msgId: string }
  /** A 'prepare' was handled (the cell converted, or the kernel could not load a compiler). */
  | { kind: 'prepared' }
  | { kind: 'message'; route: string | null; msg: KernelMessage<object> }
  | { kind: 'fatal'; message: string };
