/**
 * The seam between the kernel and what it hosts (the Session, later). The kernel calls `submitCell` with
 * every cell's source before it runs (operator-approved source) and `afterCell` with its result; the host
 * publishes display data and asks the operator questions through the `KernelChannel` it is given.
 */
import type { MimeBundle } from '../../../../shared/index.js';

export interface CellSubmission {
  cellId: string | undefined;
  executionCount: number;
}

export type CellResult =
  | { kind: 'ok'; cellId: string | undefined; executionCount: number; value: MimeBundle | undefined }
  | { kind: 'error'; cellId: string | undefined; executionCount: number; ename: string; evalue: string }
  | { kind: 'interrupted'; cellId: string | undefined; executionCount: number };

export interface DisplayOptions {
  /** Stable id so later calls with `update: true` replace this output in place. */
  displayId?: string;
  /** Send `update_display_data` for an earlier `displayId` instead of a new output. */
  update?: boolean;
}

export interface InputOptions {
  password?: boolean;
  /** The request fails closed (rejects) when no reply arrives in time. */
  timeoutMs: number;
  /**
   * The operator approval this request asks for: sent in the request's metadata (`nighthawk_approval`), so a
   * frontend lets only the card naming it answer (a card among the outputs is display data cells can draw).
   */
  approvalId?: string;
}

/** What a host may do while a cell runs. Both calls act on the currently executing cell. */
export interface KernelChannel {
  display(bundle: MimeBundle, options?: DisplayOptions): void;
  /** Resolves with the operator's `input_reply`; rejects on timeout, interrupt, or when no cell is running. */
  requestInput(prompt: string, options: InputOptions): Promise<string>;
}

/** Values a successful cell declared, and a way to rebind them for later cells. */
export interface CellScope {
  readonly declared: Readonly<Record<string, unknown>>;
  rebind(name: string, value: unknown): void;
}

export interface KernelHost {
  /** Called before a cell runs. Throwing refuses the cell: it does not run and the error is reported. */
  submitCell(source: string, submission: CellSubmission): void | Promise<void>;
  /**
   * Called while a submitted cell runs, as it gives a name it declares a function value; the cell and later
   * cells see the returned value instead (the approved adapter), so a function is callable as approved
   * later in the cell that defines it.
   */
  bindDeclared?(name: string, value: unknown): unknown;
  /** `scope` is given for cells that ran to completion. */
  afterCell(result: CellResult, scope?: CellScope): void | Promise<void>;
  /** Names a failure already shown elsewhere (a failed run in its run view) briefly, so it is told once. */
  describeError?(error: unknown): { ename: string; evalue: string } | undefined;
  /** True for a cell's final value the cell waits for, as if awaited (a SessionFunction call's run). */
  awaitsValue?(value: unknown): boolean;
  /** Redacts registered secrets from outgoing message content, with the registry cells register into. */
  redact?<T>(content: T): T;
}

export interface KernelHostContext {
  /** Directory for persistent state (ledgers); undefined when the server runs without one. */
  dataDir: string | undefined;
}

/** Builds the host inside the kernel process, given the channel it may publish on. */
export type KernelHostFactory = (channel: KernelChannel, context: KernelHostContext) => KernelHost | Promise<KernelHost>;

export const noopKernelHost: KernelHostFactory = () => ({
  submitCell() {},
  afterCell() {},
});
