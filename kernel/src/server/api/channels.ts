/**
 * One kernel WebSocket (`/api/kernels/{id}/channels`). Every frame is validated at this boundary: a frame
 * whose header can be read gets an error reply (`<type>_reply`, status `error`); anything else (invalid JSON,
 * oversized, no header) is dropped and logged. Only validated messages reach the kernel process.
 */
import type { WebSocket } from 'ws';
import type { ClientMessage, MessageHeader } from '../../../../shared/index.js';
import { ClientMessageSchema, MessageHeaderSchema, RequestContentSchemas, isRequestType, summarizeIssues as summarize } from '../../../../shared/index.js';
import type { Kernel } from '../kernel/index.js';
import { makeMessage, replyType } from '../kernel/index.js';
import { FrameError, decodeFrame, encodeFrame } from './ws-frames.js';
import { MAX_JSON_DEPTH, jsonDepthExceeds } from './json-limits.js';

export interface ChannelStats {
  framesReceived: number;
  /** Invalid frames answered with an error reply. */
  framesRefused: number;
  /** Invalid frames dropped (and logged) because they carry no usable header. */
  framesDropped: number;
}

export interface ChannelOptions {
  maxMessageBytes: number;
  stats: ChannelStats;
  log: (line: string) => void;
  serverSession: string;
}

const STDIN_TYPES = new Set(['input_reply']);

export function attachChannel(ws: WebSocket, kernel: Kernel, protocol: string, options: ChannelOptions): void {
  const { stats, log } = options;
  const connection = kernel.connect((msg) => {
    if (ws.readyState === ws.OPEN) ws.send(encodeFrame(msg, protocol));
  });
  ws.on('close', () => connection.close());
  ws.on('error', () => connection.close());

  const drop = (why: string): void => {
    stats.framesDropped++;
    log(`kernel ${kernel.id}: dropped frame (${why})`);
  };
  const refuse = (header: MessageHeader, channel: 'shell' | 'control' | 'stdin', ename: string, evalue: string): void => {
    stats.framesRefused++;
    const replyChannel = channel === 'stdin' ? 'shell' : channel;
    const content = { status: 'error', ename, evalue, traceback: [`${ename}: ${evalue}`] };
    const reply = makeMessage(replyChannel, replyType(header.msg_type), content, header, options.serverSession);
    if (ws.readyState === ws.OPEN) ws.send(encodeFrame(reply, protocol));
  };

  ws.on('message', (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
    stats.framesReceived++;
    try {
      receive(data, isBinary);
    } catch (error) {
      // Nothing a client sends may end the server: a frame whose handling fails is dropped like a malformed one.
      drop(`handling failed: ${error instanceof Error ? error.name : 'error'}`);
    }
  });

  /** An invalid frame gets an error reply when its header and channel can be read, and is dropped otherwise. */
  const refuseOrDrop = (value: unknown, evalue: string, dropReason: string): void => {
    const record = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
    const header = MessageHeaderSchema.safeParse(record['header']);
    const channel = record['channel'];
    if (header.success && (channel === 'shell' || channel === 'control' || channel === 'stdin')) return refuse(header.data, channel, 'InvalidMessage', evalue);
    drop(dropReason);
  };

  const receive = (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean): void => {
    const buffer = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    if (buffer.length > options.maxMessageBytes) return drop(`${buffer.length} bytes exceeds ${options.maxMessageBytes}`);
    let value: unknown;
    try {
      value = decodeFrame(buffer, isBinary, protocol);
    } catch (error) {
      return drop(error instanceof FrameError ? error.message : 'undecodable');
    }
    // The message is copied to the kernel process and serialised again there: a value nested deeper than any
    // REST body may be would overflow those recursive copies (a 10 KB frame of nested arrays is enough).
    if (jsonDepthExceeds(value, MAX_JSON_DEPTH + 2)) return refuseOrDrop(value, `the message is nested deeper than ${MAX_JSON_DEPTH} levels`, `nested deeper than ${MAX_JSON_DEPTH} levels`);
    const parsed = ClientMessageSchema.safeParse(value);
    if (!parsed.success) return refuseOrDrop(value, summarize(parsed.error.issues), 'no valid header or channel');
    const msg: ClientMessage = parsed.data;
    const type = msg.header.msg_type;
    if (!isRequestType(type)) return refuse(msg.header, msg.channel, 'UnknownMessageType', `Unsupported msg_type '${type.slice(0, 64)}'`);
    if ((msg.channel === 'stdin') !== STDIN_TYPES.has(type)) {
      return refuse(msg.header, msg.channel, 'InvalidMessage', `msg_type '${type}' is not accepted on the ${msg.channel} channel`);
    }
    const content = RequestContentSchemas[type].safeParse(msg.content);
    if (!content.success) return refuse(msg.header, msg.channel, 'InvalidMessage', summarize(content.error.issues));
    kernel.receive(msg, connection.route);
  };
}
