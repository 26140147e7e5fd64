/**
 * Kernel WebSocket framing: JSON text frames, or the binary `v1.kernel.websocket.jupyter.org` layout
 * (u64le count, u64le offsets, then channel, header, parent_header, metadata, content, buffers).
 */
import { KERNEL_WS_PROTOCOL, type KernelMessage } from '../../../../shared/index.js';

export const V1_PROTOCOL = KERNEL_WS_PROTOCOL;

export class FrameError extends Error {}

/** Parses one frame into an untrusted value (validated by the caller). Throws FrameError. */
export function decodeFrame(data: Buffer, isBinary: boolean, protocol: string): unknown {
  if (protocol !== V1_PROTOCOL) {
    if (isBinary) throw new FrameError('binary frames are not supported without a subprotocol');
    return parseJson(data.toString('utf8'));
  }
  if (!isBinary) throw new FrameError(`text frame on the ${V1_PROTOCOL} protocol`);
  if (data.length < 8) throw new FrameError('frame too short');
  const count = data.readBigUInt64LE(0);
  if (count < 6n || count > 64n || data.length < 8 * (Number(count) + 1)) throw new FrameError('bad offset table');
  const offsets: number[] = [];
  for (let i = 0; i < Number(count); i++) {
    const offset = data.readBigUInt64LE(8 * (i + 1));
    if (offset > BigInt(data.length)) throw new FrameError('offset out of range');
    offsets.push(Number(offset));
  }
  for (let i = 1; i < offsets.length; i++) if (offsets[i]! < offsets[i - 1]!) throw new FrameError('offsets not ascending');
  if (offsets.length > 6) throw new FrameError('binary buffers are not supported');
  const part = (i: number): string => data.subarray(offsets[i], offsets[i + 1]).toString('utf8');
  return {
    channel: part(0),
    header: parseJson(part(1)),
    parent_header: parseJson(part(2)),
    metadata: parseJson(part(3)),
    content: parseJson(part(4)),
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new FrameError('invalid JSON');
  }
}

export function encodeFrame(msg: KernelMessage<object>, protocol: string): string | Buffer {
  if (protocol !== V1_PROTOCOL) return JSON.stringify(msg);
  const parts = [
    Buffer.from(msg.channel, 'utf8'),
    Buffer.from(JSON.stringify(msg.header), 'utf8'),
    Buffer.from(JSON.stringify(msg.parent_header ?? {}), 'utf8'),
    Buffer.from(JSON.stringify(msg.metadata), 'utf8'),
    Buffer.from(JSON.stringify(msg.content), 'utf8'),
  ];
  const count = parts.length + 1;
  const table = Buffer.alloc(8 * (count + 1));
  table.writeBigUInt64LE(BigInt(count), 0);
  let offset = table.length;
  for (let i = 0; i < count; i++) {
    table.writeBigUInt64LE(BigInt(offset), 8 * (i + 1));
    if (i < parts.length) offset += parts[i]!.length;
  }
  return Buffer.concat([table, ...parts]);
}
