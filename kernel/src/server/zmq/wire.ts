/**
 * The Jupyter wire format over ZeroMQ (protocol 5.x): `[identities…, "<IDS|MSG>", hmac, header, parent_header,
 * metadata, content, …buffers]`, the HMAC-SHA256 hex digest taken over the four JSON frames. Incoming
 * messages with a wrong or missing signature are rejected before their JSON is parsed.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const DELIMITER = Buffer.from('<IDS|MSG>');

export interface WireMessage {
  identities: Buffer[];
  /** The HMAC as sent (hex); kept for replay detection. */
  signature: Buffer;
  header: Buffer;
  parentHeader: Buffer;
  metadata: Buffer;
  content: Buffer;
  buffers: Buffer[];
}

export type DecodeResult =
  | { kind: 'ok'; message: WireMessage }
  | { kind: 'malformed'; reason: string; identities: Buffer[] }
  | { kind: 'bad-signature'; identities: Buffer[] };

export class Signer {
  private readonly key: Buffer;
  constructor(key: string) {
    this.key = Buffer.from(key, 'utf8');
  }

  /** Hex digest; the empty key means signing is off (an empty signature), as in jupyter_client. */
  sign(parts: readonly (Buffer | string)[]): string {
    if (this.key.length === 0) return '';
    const hmac = createHmac('sha256', this.key);
    for (const part of parts) hmac.update(part);
    return hmac.digest('hex');
  }

  verify(signature: Buffer, parts: readonly Buffer[]): boolean {
    if (this.key.length === 0) return true;
    const expected = Buffer.from(this.sign(parts), 'utf8');
    return signature.length === expected.length && timingSafeEqual(signature, expected);
  }
}

export function decode(frames: readonly Buffer[], signer: Signer): DecodeResult {
  const at = frames.findIndex((f) => f.equals(DELIMITER));
  if (at < 0) return { kind: 'malformed', reason: 'no <IDS|MSG> delimiter', identities: [] };
  const identities = frames.slice(0, at);
  if (frames.length < at + 6) return { kind: 'malformed', reason: 'fewer than five frames after the delimiter', identities };
  const [signature, header, parentHeader, metadata, content] = frames.slice(at + 1, at + 6) as [Buffer, Buffer, Buffer, Buffer, Buffer];
  if (!signer.verify(signature, [header, parentHeader, metadata, content])) return { kind: 'bad-signature', identities };
  return { kind: 'ok', message: { identities, signature, header, parentHeader, metadata, content, buffers: frames.slice(at + 6) } };
}

/** Frames for one outgoing message; `prefix` is the routing identities (ROUTER) or the topic (PUB). */
export function encode(prefix: readonly Buffer[], parts: { header: object; parent_header: object; metadata: object; content: object }, signer: Signer): Buffer[] {
  const json = [parts.header, parts.parent_header, parts.metadata, parts.content].map((p) => Buffer.from(JSON.stringify(p), 'utf8'));
  return [...prefix, DELIMITER, Buffer.from(signer.sign(json), 'utf8'), ...json];
}
