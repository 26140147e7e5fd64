/**
 * Cassettes: a JSONL file of request/response pairs. RecordingModelClient writes one line per
 * completed request; ReplayModelClient serves the lines in order without any network access and
 * stops at the first request that differs from the recording.
 */
import { readFileSync } from 'node:fs';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type {
  ModelClient,
  ModelMessage,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
  ModelToolCall,
  ToolDefinition,
  Usage,
} from '../core/index.js';
import { claimInfrastructureRunner, redactValue } from '../core/index.js';
import { canonicalJson, firstDifference } from './canonical-json.js';

// Claimed as the library loads, before any model code runs: see core/infrastructure-seam.ts.
const asInfrastructure = claimInfrastructureRunner() ?? (<T>(_holder: string, fn: () => T): T => fn());
import { CassetteDivergenceError, CassetteFormatError, ModelRequestAbortedError } from './errors.js';
import { DEFAULT_VOLATILE_ID, IdTranslation, maskIds } from './volatile-ids.js';

/** The part of a request that determines the model's answer; signals and credentials are not in it. */
export interface CassetteRequest {
  readonly messages: readonly ModelMessage[];
  readonly tools: readonly ToolDefinition[];
  readonly outputToolName: string;
  /** The per-scope model choice, or null for the client's default. */
  readonly model: string | null;
}

export interface CassetteResponse {
  readonly text: string | null;
  readonly toolCalls: readonly ModelToolCall[];
  readonly usage?: Partial<Usage> | undefined;
  readonly model?: string | undefined;
  readonly finishReason?: string | undefined;
}

/** One JSONL line. */
export interface CassetteEntry {
  readonly index: number;
  /** The recorded client's label, e.g. `openai:gpt-4o-mini`. */
  readonly label: string;
  readonly request: CassetteRequest;
  readonly response: CassetteResponse;
}

/** The normalised, JSON-safe form of a request that cassettes store and compare. */
export function normaliseRequest(request: ModelRequest): CassetteRequest {
  return JSON.parse(
    JSON.stringify({
      messages: request.messages,
      tools: request.tools,
      outputToolName: request.outputToolName,
      model: request.model ?? null,
    }),
  ) as CassetteRequest;
}

function normaliseResponse(response: ModelResponse): CassetteResponse {
  return JSON.parse(JSON.stringify(response)) as CassetteResponse;
}

/**
 * Forwards every request to `inner` and, once the response is complete, writes the pair to `path`.
 * The file is truncated by the first write unless `append` is set. Failed requests are not recorded;
 * their errors propagate unchanged.
 */
export class RecordingModelClient implements ModelClient {
  readonly label: string;
  readonly path: string;
  /** The recorded client's (it makes the requests). */
  readonly networkOrigins: readonly string[] | undefined;
  readonly #inner: ModelClient;
  #append: boolean;
  #next = 0;
  #writes: Promise<void> = Promise.resolve();

  constructor(inner: ModelClient, path: string, options: { append?: boolean } = {}) {
    this.#inner = inner;
    this.path = path;
    this.label = inner.label;
    this.networkOrigins = inner.networkOrigins;
    this.#append = options.append ?? false;
  }

  async request(request: ModelRequest, options?: { onStream?: (event: ModelStreamEvent) => void }): Promise<ModelResponse> {
    const index = this.#next++;
    const normalised = normaliseRequest(request);
    const response = await this.#inner.request(request, options);
    const entry: CassetteEntry = { index, label: this.#inner.label, request: normalised, response: normaliseResponse(response) };
    // Secrets (the provider key, host-registered values) never reach the cassette file.
    const line = JSON.stringify(redactValue(entry)) + '\n';
    // Chained so lines never interleave and the first write is the one that truncates.
    // The host's own file work inside a model request, whose allowance admits only the network.
    this.#writes = this.#writes.then(() =>
      asInfrastructure('cassette', async () => {
        if (this.#append) return appendFile(this.path, line, 'utf8');
        await mkdir(dirname(this.path), { recursive: true });
        await writeFile(this.path, line, 'utf8');
        this.#append = true;
      }),
    );
    await this.#writes;
    return response;
  }
}
Object.freeze(RecordingModelClient.prototype); // shared by every run in the process: model code replaces no method

/** Reads a cassette, ordered by request index. Throws CassetteFormatError for a missing or malformed file. */
export function readCassette(path: string): CassetteEntry[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new CassetteFormatError({ path, detail: 'cannot be read; record it first with RecordingModelClient.' });
  }
  const entries: CassetteEntry[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new CassetteFormatError({ path, line: i + 1, detail: 'is not valid JSON.' });
    }
    if (!isEntry(value)) throw new CassetteFormatError({ path, line: i + 1, detail: 'needs index, label, request and response.' });
    entries.push(value);
  });
  return entries.sort((a, b) => a.index - b.index);
}

function isEntry(value: unknown): value is CassetteEntry {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  const request = v.request as Record<string, unknown> | undefined;
  const response = v.response as Record<string, unknown> | undefined;
  return (
    typeof v.index === 'number' &&
    typeof v.label === 'string' &&
    typeof request === 'object' && request !== null && Array.isArray(request.messages) && Array.isArray(request.tools) &&
    typeof response === 'object' && response !== null && Array.isArray(response.toolCalls)
  );
}

export interface ReplayOptions {
  /**
   * Ids that legitimately differ between the recording and the replay (core's `op_…` ids by
   * default). They are compared by order of first appearance; `false` compares them verbatim.
   */
  readonly volatileIds?: RegExp | false;
}

/**
 * Serves a cassette's responses in order with zero network access. Before serving, each request
 * is compared with the recorded one (canonical JSON of the normalised request, runtime ids
 * masked); the first difference, or a request past the end, throws CassetteDivergenceError naming
 * index and field. Recorded ids quoted in a response are translated to the live run's ids.
 * The file is read at construction, so a missing cassette throws CassetteFormatError there.
 */
export class ReplayModelClient implements ModelClient {
  readonly label: string;
  readonly path: string;
  /** Replies come from the cassette: a request connects nowhere. */
  readonly networkOrigins: readonly string[] = Object.freeze([]);
  readonly #entries: readonly CassetteEntry[];
  readonly #pattern: RegExp | undefined;
  readonly #ids = new IdTranslation();
  #served = 0;

  constructor(path: string, options: ReplayOptions = {}) {
    this.path = path;
    this.#entries = readCassette(path);
    this.#pattern = options.volatileIds === false ? undefined : (options.volatileIds ?? DEFAULT_VOLATILE_ID);
    this.label = `replay:${this.#entries[0]?.label ?? 'empty'}`;
  }

  /** Requests served so far. */
  get served(): number {
    return this.#served;
  }

  /** Requests in the cassette. */
  get recorded(): number {
    return this.#entries.length;
  }

  async request(request: ModelRequest, options?: { onStream?: (event: ModelStreamEvent) => void }): Promise<ModelResponse> {
    if (request.signal?.aborted) throw new ModelRequestAbortedError({});
    const index = this.#served;
    const entry = this.#entries[index];
    const actual = normaliseRequest(request);
    if (!entry) {
      throw new CassetteDivergenceError({ path: this.path, index, field: 'request', expected: undefined, actual: bounded(canonicalJson(actual)) });
    }
    const recorded = maskIds(canonicalJson(entry.request), this.#pattern);
    const live = maskIds(canonicalJson(actual), this.#pattern);
    if (recorded.masked !== live.masked) {
      const difference = firstDifference(JSON.parse(recorded.masked), JSON.parse(live.masked), ['messages', 'tools', 'outputToolName', 'model']);
      throw new CassetteDivergenceError({
        path: this.path,
        index,
        field: difference?.path ?? 'request',
        expected: difference?.expected === undefined ? undefined : bounded(canonicalJson(difference.expected)),
        actual: difference?.actual === undefined ? undefined : bounded(canonicalJson(difference.actual)),
      });
    }
    const conflict = this.#ids.learn(recorded.ids, live.ids);
    if (conflict) {
      throw new CassetteDivergenceError({ path: this.path, index, field: 'ids', expected: recorded.ids.join(' '), actual: conflict });
    }
    this.#served++;
    const response = JSON.parse(this.#ids.toLive(JSON.stringify(entry.response), this.#pattern)) as CassetteResponse;
    if (options?.onStream) replayStream(response, options.onStream);
    return response;
  }

  /** Throws CassetteDivergenceError if fewer requests were made than recorded (the program stopped early). */
  assertExhausted(): void {
    if (this.#served < this.#entries.length) {
      throw new CassetteDivergenceError({
        path: this.path,
        index: this.#served,
        field: 'request',
        expected: bounded(canonicalJson(this.#entries[this.#served]!.request)),
        actual: undefined,
      });
    }
  }
}
Object.freeze(ReplayModelClient.prototype); // shared by every run in the process: model code replaces no method

function replayStream(response: CassetteResponse, emit: (event: ModelStreamEvent) => void): void {
  if (response.text) emit({ kind: 'text-delta', delta: response.text });
  response.toolCalls.forEach((call, index) =>
    emit({ kind: 'tool-call-delta', index, id: call.id, name: call.name, argumentsDelta: call.arguments }),
  );
}

function bounded(text: string, max = 240): string {
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}
