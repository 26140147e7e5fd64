/**
 * Jupyter kernel messages (wire protocol 5.3, JSON over the kernel WebSocket) and the REST models of the
 * Jupyter Server API subset the kernel server implements. Field names keep Jupyter's snake_case.
 * Schemas for what clients send are strict about types and bounded in size; what the kernel sends is typed
 * but not re-validated on the way out.
 */
import { z } from 'zod';

export const PROTOCOL_VERSION = '5.3';

/** Longest string accepted for ids and names in headers; longer values are hostile, not legitimate. */
const MAX_ID = 256;
const id = z.string().max(MAX_ID);

export const Channel = { shell: 'shell', control: 'control', stdin: 'stdin', iopub: 'iopub' } as const;
export type Channel = (typeof Channel)[keyof typeof Channel];
export const ChannelSchema = z.enum(['shell', 'control', 'stdin', 'iopub']);

export const MessageHeaderSchema = z.looseObject({
  msg_id: id.min(1),
  msg_type: id.min(1),
  username: id,
  session: id,
  date: z.string().max(64).optional(),
  version: z.string().max(16),
  subshell_id: id.nullable().optional(),
});
export type MessageHeader = z.infer<typeof MessageHeaderSchema>;

/** A parent header is either a full header or `{}` (messages with no parent). */
export const ParentHeaderSchema = z.union([MessageHeaderSchema, z.object({}).strict()]);
export type ParentHeader = MessageHeader | Record<string, never>;

const JsonObjectSchema = z.record(z.string(), z.unknown());
export type JsonObject = Record<string, unknown>;

/** Envelope of a message a client sends on the kernel WebSocket (shell, control or stdin). */
export const ClientMessageSchema = z.object({
  channel: z.enum(['shell', 'control', 'stdin']),
  header: MessageHeaderSchema,
  parent_header: z.union([ParentHeaderSchema, z.null()]).optional(),
  metadata: JsonObjectSchema.optional(),
  content: JsonObjectSchema,
  buffers: z.array(z.unknown()).max(0).optional(),
});
export type ClientMessage = z.infer<typeof ClientMessageSchema>;

/** Any message as the kernel emits it. */
export interface KernelMessage<Content extends object = JsonObject> {
  channel: Channel;
  header: MessageHeader;
  parent_header: ParentHeader;
  metadata: JsonObject;
  content: Content;
  buffers?: [];
}

const code = z.string().max(1_000_000);
const cursorPos = z.number().int().min(0).max(1_000_000);

/** Content schemas of the requests the kernel answers, by msg_type. */
export const RequestContentSchemas = {
  kernel_info_request: z.object({}).loose(),
  execute_request: z.looseObject({
    code,
    silent: z.boolean().optional(),
    store_history: z.boolean().optional(),
    user_expressions: JsonObjectSchema.optional(),
    allow_stdin: z.boolean().optional(),
    stop_on_error: z.boolean().optional(),
  }),
  complete_request: z.looseObject({ code, cursor_pos: cursorPos }),
  inspect_request: z.looseObject({ code, cursor_pos: cursorPos, detail_level: z.union([z.literal(0), z.literal(1)]).optional() }),
  is_complete_request: z.looseObject({ code }),
  history_request: z.looseObject({}),
  comm_info_request: z.looseObject({ target_name: z.string().max(MAX_ID).optional() }),
  interrupt_request: z.looseObject({}),
  shutdown_request: z.looseObject({ restart: z.boolean() }),
  input_reply: z.looseObject({ value: z.string().max(1_000_000) }),
  comm_open: z.looseObject({ comm_id: id, target_name: id }),
  comm_msg: z.looseObject({ comm_id: id }),
  comm_close: z.looseObject({ comm_id: id }),
} as const;
export type RequestType = keyof typeof RequestContentSchemas;
export type RequestContent<T extends RequestType> = z.infer<(typeof RequestContentSchemas)[T]>;

export function isRequestType(msgType: string): msgType is RequestType {
  return Object.prototype.hasOwnProperty.call(RequestContentSchemas, msgType);
}

/** A MIME bundle: MIME type → value (strings, or JSON for +json types). */
export const MimeBundleSchema = z.record(z.string(), z.unknown());
export type MimeBundle = Record<string, unknown>;

export type ExecutionState = 'starting' | 'idle' | 'busy' | 'restarting' | 'dead';

export interface ErrorContent {
  ename: string;
  evalue: string;
  traceback: string[];
}

/** Content of the iopub messages the kernel publishes, by msg_type. */
export interface IopubContents {
  status: { execution_state: ExecutionState };
  execute_input: { code: string; execution_count: number };
  stream: { name: 'stdout' | 'stderr'; text: string };
  display_data: { data: MimeBundle; metadata: JsonObject; transient?: { display_id: string } };
  update_display_data: { data: MimeBundle; metadata: JsonObject; transient: { display_id: string } };
  execute_result: { execution_count: number; data: MimeBundle; metadata: JsonObject };
  error: ErrorContent;
  clear_output: { wait: boolean };
}

export type ReplyStatus = 'ok' | 'error' | 'aborted';

export type ExecuteReplyContent =
  | { status: 'ok'; execution_count: number; user_expressions: JsonObject; payload: [] }
  | ({ status: 'error'; execution_count: number } & ErrorContent)
  | { status: 'aborted'; execution_count: number };

// ---- REST models (Jupyter Server API) ----

export const KernelModelSchema = z.object({
  id: z.string(),
  name: z.string(),
  last_activity: z.string(),
  execution_state: z.string(),
  connections: z.number(),
});
export type KernelModel = z.infer<typeof KernelModelSchema>;

/** POST /api/kernels body. */
export const StartKernelBodySchema = z.looseObject({ name: z.string().max(MAX_ID).optional(), path: z.string().max(4096).optional() });

export const SessionModelSchema = z.object({
  id: z.string(),
  path: z.string(),
  name: z.string(),
  type: z.string(),
  kernel: KernelModelSchema.nullable(),
});
export type SessionModel = z.infer<typeof SessionModelSchema>;

/** POST /api/sessions body. */
export const CreateSessionBodySchema = z.looseObject({
  path: z.string().max(4096),
  name: z.string().max(4096).optional(),
  type: z.string().max(64).optional(),
  kernel: z.looseObject({ id: id.optional(), name: id.optional() }).nullable().optional(),
});
export type CreateSessionBody = z.infer<typeof CreateSessionBodySchema>;

/** PATCH /api/sessions/{id} body. */
export const PatchSessionBodySchema = z.looseObject({
  path: z.string().max(4096).optional(),
  name: z.string().max(4096).optional(),
  type: z.string().max(64).optional(),
  kernel: z.looseObject({ id: id.optional(), name: id.optional() }).nullable().optional(),
});

export const KernelSpecSchema = z.object({
  name: z.string(),
  spec: z.object({
    argv: z.array(z.string()),
    display_name: z.string(),
    language: z.string(),
    interrupt_mode: z.string(),
    env: z.record(z.string(), z.string()),
    metadata: JsonObjectSchema,
  }),
  resources: z.record(z.string(), z.string()),
});
export type KernelSpec = z.infer<typeof KernelSpecSchema>;

export type ContentsType = 'notebook' | 'file' | 'directory';

export interface ContentsModel {
  name: string;
  path: string;
  type: ContentsType;
  writable: boolean;
  created: string;
  last_modified: string;
  mimetype: string | null;
  content: unknown;
  format: 'json' | 'text' | null;
  size?: number;
  hash?: string;
  hash_algorithm?: string;
}

/** PUT /api/contents/{path} body (save). */
export const SaveContentsBodySchema = z.looseObject({
  type: z.enum(['notebook', 'file', 'directory']).optional(),
  format: z.string().max(16).nullable().optional(),
  content: z.unknown().optional(),
  path: z.string().max(4096).optional(),
  name: z.string().max(4096).optional(),
});

/** POST /api/contents/{dir} body (new untitled or copy). */
export const CreateContentsBodySchema = z.looseObject({
  type: z.enum(['notebook', 'file', 'directory']).optional(),
  ext: z.string().max(16).optional(),
  path: z.string().max(4096).optional(),
  copy_from: z.string().max(4096).optional(),
});

/** PATCH /api/contents/{path} body (rename). */
export const RenameContentsBodySchema = z.looseObject({ path: z.string().min(1).max(4096) });

export interface CheckpointModel {
  id: string;
  last_modified: string;
}

/** The first few validation issues of a refused message, one line, bounded: what a client is told. */
export function summarizeIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): string {
  return issues
    .slice(0, 3)
    .map((i) => `${i.path.map(String).join('.') || '(message)'}: ${i.message}`)
    .join('; ')
    .slice(0, 500);
}
