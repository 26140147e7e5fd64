/** The connection file Jupyter writes for a kernel it starts: transport, ports and the signing key. */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { NighthawkError } from '../../core/index.js';

const port = z.number().int().min(0).max(65_535);

export const ConnectionInfoSchema = z.looseObject({
  transport: z.enum(['tcp', 'ipc']).default('tcp'),
  ip: z.string().min(1).default('127.0.0.1'),
  shell_port: port,
  iopub_port: port,
  stdin_port: port,
  control_port: port,
  hb_port: port,
  key: z.string().default(''),
  signature_scheme: z.string().default('hmac-sha256'),
  kernel_name: z.string().optional(),
});
export type ConnectionInfo = z.infer<typeof ConnectionInfoSchema>;

export const SocketName = { shell: 'shell', control: 'control', stdin: 'stdin', iopub: 'iopub', hb: 'hb' } as const;
export type SocketName = (typeof SocketName)[keyof typeof SocketName];

/** A connection file that cannot be read or does not describe a kernel the transport can bind. */
export class ConnectionFileError extends NighthawkError {
  readonly file: string;
  constructor(options: { file: string; message: string; cause?: unknown }) {
    super('connection-file', `${options.file}: ${options.message}`, { cause: options.cause });
    this.file = options.file;
  }
}

export function readConnectionFile(file: string): ConnectionInfo {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConnectionFileError({ file, message: 'not readable JSON', cause: error });
  }
  const parsed = ConnectionInfoSchema.safeParse(raw);
  if (!parsed.success) throw new ConnectionFileError({ file, message: parsed.error.message });
  if (parsed.data.signature_scheme !== 'hmac-sha256') {
    throw new ConnectionFileError({ file, message: `unsupported signature_scheme '${parsed.data.signature_scheme}' (hmac-sha256 only)` });
  }
  return parsed.data;
}

/** ZeroMQ endpoint of one socket: `tcp://ip:port`, or `ipc://ip-port` as jupyter_client names ipc files. */
export function endpoint(info: ConnectionInfo, socket: SocketName): string {
  const portOf: Record<SocketName, number> = {
    shell: info.shell_port,
    control: info.control_port,
    stdin: info.stdin_port,
    iopub: info.iopub_port,
    hb: info.hb_port,
  };
  return info.transport === 'tcp' ? `tcp://${info.ip}:${portOf[socket]}` : `ipc://${info.ip}-${portOf[socket]}`;
}
