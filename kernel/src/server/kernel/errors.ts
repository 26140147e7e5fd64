/** Errors of the kernel server. All extend NighthawkError (core/errors.ts). */
import { NighthawkError, sealErrorClasses } from '../../core/index.js';

export type InputFailure = 'timeout' | 'interrupted' | 'cell-finished' | 'no-cell' | 'stdin-not-allowed' | 'already-pending';

/** An operator input request that got no answer; callers must treat it as a refusal (fail closed). */
export class InputRequestError extends NighthawkError {
  readonly reason: InputFailure;
  readonly timeoutMs: number | undefined;
  constructor(options: { reason: InputFailure; timeoutMs?: number }) {
    const detail: Record<InputFailure, string> = {
      timeout: `no reply within ${options.timeoutMs ?? 0} ms`,
      interrupted: 'the kernel was interrupted',
      'cell-finished': 'the cell finished before a reply arrived',
      'no-cell': 'no cell is executing, so there is no one to ask',
      'stdin-not-allowed': 'the frontend does not allow stdin for this cell',
      'already-pending': 'another input request is still waiting for its reply',
    };
    super('input-request', `Input request failed: ${detail[options.reason]}.`);
    this.reason = options.reason;
    this.timeoutMs = options.timeoutMs;
  }
}

/** A REST or WebSocket request that the server refuses; `status` is the HTTP status to answer with. */
export class RequestRefusedError extends NighthawkError {
  readonly status: number;
  constructor(options: { status: number; message: string }) {
    super('request-refused', options.message);
    this.status = options.status;
  }
}

/** A kernel process that failed to start or died. */
export class KernelProcessError extends NighthawkError {
  readonly kernelId: string | undefined;
  constructor(options: { message: string; kernelId?: string; cause?: unknown }) {
    super('kernel-process', options.message, { cause: options.cause });
    this.kernelId = options.kernelId;
  }
}

// Cells reach these (an input request a cell makes): frozen like the library's own (see sealErrorClass).
sealErrorClasses({ InputRequestError, RequestRefusedError, KernelProcessError });
