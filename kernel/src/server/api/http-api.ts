/**
 * REST routes of the Jupyter Server API subset: /api, /api/status, /api/me, /api/kernelspecs,
 * /api/kernels, /api/sessions, /api/contents (+ checkpoints). Bodies are size-limited JSON validated with
 * the shared zod schemas; failures answer `{ message, reason }` with a 4xx status.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import {
  CreateContentsBodySchema,
  CreateSessionBodySchema,
  PatchSessionBodySchema,
  RenameContentsBodySchema,
  SaveContentsBodySchema,
  SESSION_CREATED_HEADER,
  StartKernelBodySchema,
  type KernelSpec,
} from '../../../../shared/index.js';
import type { ContentsStore } from './contents.js';
import { RequestRefusedError } from '../kernel/index.js';
import { KERNEL_NAME, type KernelManager } from '../kernel/index.js';
import type { SessionRegistry } from './sessions.js';
import { MAX_JSON_DEPTH, isJsonContentType, parseBoundedJson } from './json-limits.js';

export interface ApiContext {
  kernels: KernelManager;
  sessions: SessionRegistry;
  contents: ContentsStore;
  maxBodyBytes: number;
}

const refuse = (status: number, message: string): never => {
  throw new RequestRefusedError({ status, message });
};

export const KERNEL_SPEC: KernelSpec = {
  name: KERNEL_NAME,
  spec: {
    argv: [],
    display_name: 'Nighthawk TS',
    language: 'typescript',
    interrupt_mode: 'message',
    env: {},
    metadata: {},
  },
  resources: {},
};

async function readJson<S extends z.ZodType>(req: IncomingMessage, schema: S, maxBytes: number): Promise<z.infer<S>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) refuse(413, `Request body exceeds ${maxBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  let value: unknown = {};
  if (text.trim() !== '') {
    const parsed = parseBoundedJson(text);
    if (!parsed.ok) {
      refuse(400, parsed.reason === 'too-deep' ? `Request body is nested deeper than ${MAX_JSON_DEPTH} levels` : 'Request body is not valid JSON');
    } else value = parsed.value;
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    refuse(400, `Invalid request body: ${issue ? `${issue.path.join('.') || '(body)'}: ${issue.message}` : 'schema mismatch'}`);
  }
  return parsed.data as z.infer<S>;
}

function send(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  if (body === undefined) {
    res.writeHead(status, headers).end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(text);
}

function decodeSegments(rest: string): string {
  // Each segment is decoded once; an encoded '/' or '..' stays a (rejected) segment of its own.
  return rest
    .split('/')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return refuse(400, 'Malformed percent-encoding in path');
      }
    })
    .map((s) => (s.includes('/') ? refuse(400, 'Encoded slash in path') : s))
    .join('/');
}

/** Handles one /api request. `pathname` is the raw (still encoded) URL path. */
export async function handleApi(ctx: ApiContext, req: IncomingMessage, res: ServerResponse, pathname: string, query: URLSearchParams): Promise<void> {
  const method = req.method ?? 'GET';
  // A cross-site form can send text/plain, urlencoded or multipart bodies without a CORS preflight.
  if ((method === 'POST' || method === 'PUT' || method === 'PATCH') && !isJsonContentType(req.headers['content-type'])) {
    refuse(415, `${method} requests must send Content-Type: application/json`);
  }
  const parts = pathname.split('/').filter(Boolean).slice(1); // drop 'api'
  const [area, id, action, ...extra] = parts;

  if (area === undefined) return method === 'GET' ? send(res, 200, { version: '2.14.0' }) : refuse(405, 'Method not allowed');
  if (area === 'status' && method === 'GET') {
    const kernels = ctx.kernels.list();
    return send(res, 200, { started: new Date().toISOString(), kernels: kernels.length, connections: 0, last_activity: new Date().toISOString() });
  }
  if (area === 'me' && method === 'GET') {
    return send(res, 200, {
      identity: { username: 'operator', name: 'Operator', display_name: 'Operator', initials: 'OP', avatar_url: null, color: null },
      permissions: {},
    });
  }
  if (area === 'terminals' && method === 'GET') return send(res, 200, []);

  if (area === 'kernelspecs') {
    if (method !== 'GET') refuse(405, 'Method not allowed');
    if (id === undefined) return send(res, 200, { default: KERNEL_NAME, kernelspecs: { [KERNEL_NAME]: KERNEL_SPEC } });
    return id === KERNEL_NAME ? send(res, 200, KERNEL_SPEC) : refuse(404, 'No such kernel spec');
  }

  if (area === 'kernels') {
    if (id === undefined) {
      if (method === 'GET') return send(res, 200, ctx.kernels.list().map((k) => k.model()));
      if (method === 'POST') {
        const body = await readJson(req, StartKernelBodySchema, ctx.maxBodyBytes);
        if (body.name !== undefined && body.name !== KERNEL_NAME) refuse(400, `No kernel spec ${body.name.slice(0, 64)}`);
        const kernel = await ctx.kernels.start();
        return send(res, 201, kernel.model());
      }
      return refuse(405, 'Method not allowed');
    }
    const kernel = ctx.kernels.get(decodeSegments(id)) ?? refuse(404, 'No such kernel');
    if (action === undefined) {
      if (method === 'GET') return send(res, 200, kernel.model());
      if (method === 'DELETE') {
        await ctx.kernels.shutdown(kernel.id);
        return send(res, 204);
      }
      return refuse(405, 'Method not allowed');
    }
    if (method !== 'POST' || extra.length > 0) return refuse(405, 'Method not allowed');
    if (action === 'interrupt') {
      kernel.interrupt();
      return send(res, 204);
    }
    if (action === 'restart') {
      await kernel.restart({ by: 'client' });
      return send(res, 200, kernel.model());
    }
    return refuse(404, 'Unknown kernel action');
  }

  if (area === 'sessions') {
    if (id === undefined) {
      if (method === 'GET') return send(res, 200, ctx.sessions.list());
      if (method === 'POST') {
        const { model, created } = await ctx.sessions.create(await readJson(req, CreateSessionBodySchema, ctx.maxBodyBytes));
        return send(res, 201, model, { [SESSION_CREATED_HEADER]: created ? 'created' : 'found' });
      }
      return refuse(405, 'Method not allowed');
    }
    if (action !== undefined) return refuse(404, 'Not found');
    const sessionId = decodeSegments(id);
    if (method === 'GET') return send(res, 200, ctx.sessions.get(sessionId));
    if (method === 'PATCH') return send(res, 200, await ctx.sessions.update(sessionId, await readJson(req, PatchSessionBodySchema, ctx.maxBodyBytes)));
    if (method === 'DELETE') {
      await ctx.sessions.delete(sessionId);
      return send(res, 204);
    }
    return refuse(405, 'Method not allowed');
  }

  if (area === 'contents') return handleContents(ctx, req, res, decodeSegments(parts.slice(1).join('/')), query);
  return refuse(404, 'Not found');
}

async function handleContents(ctx: ApiContext, req: IncomingMessage, res: ServerResponse, apiPath: string, query: URLSearchParams): Promise<void> {
  const method = req.method ?? 'GET';
  const marker = /^(.+\.ipynb)\/checkpoints(?:\/([^/]+))?$/.exec(apiPath);
  if (marker) {
    const file = marker[1]!;
    const checkpoint = marker[2];
    if (checkpoint === undefined) {
      if (method === 'GET') return send(res, 200, await ctx.contents.listCheckpoints(file));
      if (method === 'POST') return send(res, 201, await ctx.contents.createCheckpoint(file));
      return refuse(405, 'Method not allowed');
    }
    if (method === 'POST') {
      await ctx.contents.restoreCheckpoint(file, checkpoint);
      return send(res, 204);
    }
    if (method === 'DELETE') {
      await ctx.contents.deleteCheckpoint(file, checkpoint);
      return send(res, 204);
    }
    return refuse(405, 'Method not allowed');
  }
  switch (method) {
    case 'GET':
      return send(res, 200, await ctx.contents.get(apiPath, { content: query.get('content') !== '0' }));
    case 'PUT': {
      const body = await readJson(req, SaveContentsBodySchema, ctx.maxBodyBytes);
      const { model, created } = await ctx.contents.save(apiPath, body);
      return send(res, created ? 201 : 200, model);
    }
    case 'POST':
      return send(res, 201, await ctx.contents.newUntitled(apiPath, await readJson(req, CreateContentsBodySchema, ctx.maxBodyBytes)));
    case 'PATCH': {
      const body = await readJson(req, RenameContentsBodySchema, ctx.maxBodyBytes);
      return send(res, 200, await ctx.contents.rename(apiPath, body.path));
    }
    case 'DELETE':
      await ctx.contents.delete(apiPath);
      return send(res, 204);
    default:
      return refuse(405, 'Method not allowed');
  }
}
