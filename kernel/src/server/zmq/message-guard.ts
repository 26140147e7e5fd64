/**
 * What a signed ZeroMQ message must pass before the kernel acts on it: a signature not seen recently
 * (jupyter_client refuses duplicate signatures the same way), a readable header, a request type accepted on
 * its channel, and content matching that type's schema. A signed message is authenticated, not well-formed:
 * a client with the key may still send `{code: 42}`, and that must be answered, not thrown on.
 */
import type { z } from 'zod';
import type { ClientMessage, MessageHeader } from '../../../../shared/index.js';
import { ClientMessageSchema, MessageHeaderSchema, RequestContentSchemas, isRequestType, summarizeIssues as summarize } from '../../../../shared/index.js';
import { HistoryRequestSchema } from './cell-history.js';
import type { WireMessage } from './wire.js';
import type { RouterName } from './zmq-sockets.js';

export type Admission =
  | { kind: 'ok'; message: ClientMessage }
  /** Answer with an error `<type>_reply` on `channel` (the channel it came on; never stdin). */
  | { kind: 'refuse'; header: MessageHeader; channel: 'shell' | 'control'; ename: string; evalue: string }
  | { kind: 'drop'; reason: string };

// The ZeroMQ kernel's own stricter schemas where it answers the request itself.
const CONTENT_SCHEMAS: Partial<Record<string, z.ZodType>> = { history_request: HistoryRequestSchema };

function parseJson(frame: Buffer): unknown {
  return JSON.parse(frame.toString('utf8'));
}

/**
 * `kernelSession` is the session id the kernel signs its own messages with. Its iopub messages reach any local
 * subscriber (no key needed) already signed: sent back to an input channel they verify, and the replay guard never
 * saw them (it remembers what was received). A message of that session on an input channel is such a reflection.
 */
export function admitMessage(channel: RouterName, wire: WireMessage, kernelSession?: string): Admission {
  let header: unknown;
  let value: unknown;
  try {
    header = parseJson(wire.header);
    value = { channel, header, parent_header: parseJson(wire.parentHeader), metadata: parseJson(wire.metadata), content: parseJson(wire.content) };
  } catch (error) {
    const readable = MessageHeaderSchema.safeParse(header);
    if (readable.success && channel !== 'stdin') return { kind: 'refuse', header: readable.data, channel, ename: 'InvalidMessage', evalue: 'a frame is not valid JSON' };
    return { kind: 'drop', reason: `not JSON: ${(error as Error).message.slice(0, 200)}` };
  }
  if (kernelSession !== undefined && (header as { session?: unknown } | null)?.session === kernelSession) {
    return { kind: 'drop', reason: "the kernel's own message, sent back (reflected from iopub)" };
  }
  const parsed = ClientMessageSchema.safeParse(value);
  if (!parsed.success) {
    const readable = MessageHeaderSchema.safeParse(header);
    if (readable.success && channel !== 'stdin') return { kind: 'refuse', header: readable.data, channel, ename: 'InvalidMessage', evalue: summarize(parsed.error.issues) };
    return { kind: 'drop', reason: `no valid header: ${summarize(parsed.error.issues)}` };
  }
  const message = parsed.data;
  const type = message.header.msg_type;
  // Replies to unknown types come from the runtime, in order with executions (as before).
  if (!isRequestType(type)) return { kind: 'ok', message };
  if ((channel === 'stdin') !== (type === 'input_reply')) {
    if (channel === 'stdin') return { kind: 'drop', reason: `msg_type '${type}' on the stdin channel` };
    return { kind: 'refuse', header: message.header, channel, ename: 'InvalidMessage', evalue: `msg_type '${type}' is not accepted on the ${channel} channel` };
  }
  const schema = CONTENT_SCHEMAS[type] ?? RequestContentSchemas[type];
  const content = schema.safeParse(message.content);
  if (!content.success) {
    if (channel === 'stdin') return { kind: 'drop', reason: `invalid ${type}: ${summarize(content.error.issues)}` };
    return { kind: 'refuse', header: message.header, channel, ename: 'InvalidMessage', evalue: `invalid ${type} content: ${summarize(content.error.issues)}` };
  }
  return { kind: 'ok', message };
}

/**
 * Remembers the last `capacity` signatures (insertion order) so a captured signed message cannot be sent
 * again; jupyter_client keeps 2^16 the same way. An unsigned session (empty key) has nothing to compare.
 */
export class ReplayGuard {
  private readonly seen = new Set<string>();
  constructor(private readonly capacity = 65_536) {}

  /** True when `signature` was already used (a replay); otherwise records it. */
  replayed(signature: Buffer): boolean {
    if (signature.length === 0) return false;
    const key = signature.toString('latin1');
    if (this.seen.has(key)) return true;
    this.seen.add(key);
    if (this.seen.size > this.capacity) {
      const oldest = this.seen.values().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
    return false;
  }
}
