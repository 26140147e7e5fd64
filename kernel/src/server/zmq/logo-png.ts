/**
 * The kernelspec logo, drawn at install time so no binary lives in the repo: a night-blue rounded square
 * with a pale hawk-wing chevron. Encoded as an RGBA PNG with node:zlib.
 */
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

export function encodePng(width: number, height: number, rgba: (x: number, y: number) => [number, number, number, number]): Buffer {
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 4 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) raw.set(rgba(x, y), row + 1 + x * 4);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** The logo at `size`×`size` pixels. */
export function logoPng(size: number): Buffer {
  const r = size * 0.18;
  return encodePng(size, size, (px, py) => {
    const x = (px + 0.5) / size;
    const y = (py + 0.5) / size;
    // Rounded-square mask.
    const dx = Math.max(0, Math.abs(px + 0.5 - size / 2) - (size / 2 - r));
    const dy = Math.max(0, Math.abs(py + 0.5 - size / 2) - (size / 2 - r));
    if (dx * dx + dy * dy > r * r) return [0, 0, 0, 0];
    // A chevron (two wings meeting low in the middle), 0.09 of the size thick.
    const wing = 0.32 + Math.abs(x - 0.5) * -0.55 + 0.3;
    const onWing = Math.abs(y - wing) < 0.09 && x > 0.14 && x < 0.86;
    return onWing ? [235, 240, 255, 255] : [22, 34, 72, 255];
  });
}
