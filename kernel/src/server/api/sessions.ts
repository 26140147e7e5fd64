/** /api/sessions: path → kernel bindings as notebook documents use them. Kept in memory. */
import { randomUUID } from 'node:crypto';
import type { CreateSessionBody, SessionModel } from '../../../../shared/index.js';
import { KERNEL_NAME, RequestRefusedError } from '../kernel/index.js';
import type { KernelManager } from '../kernel/index.js';

interface SessionRecord {
  id: string;
  path: string;
  name: string;
  type: string;
  kernelId: string;
}

type KernelChoice = { id?: string | undefined; name?: string | undefined } | null | undefined;

/** The first code cell of the notebook at an API path, if there is one worth converting ahead. */
export type FirstCodeCell = (path: string) => Promise<string | undefined>;

export class SessionRegistry {
  private readonly sessions = new Map<string, SessionRecord>();
  /** Sessions whose kernel is starting, by path. */
  private readonly starting = new Map<string, Promise<SessionRecord>>();

  /**
   * `firstCodeCell`: a kernel started for a new session converts its notebook's first code cell while the page
   * connects, so running that cell does not wait for the compiler (nothing runs ahead).
   */
  constructor(
    private readonly kernels: KernelManager,
    private readonly firstCodeCell?: FirstCodeCell,
  ) {}

  private model(record: SessionRecord): SessionModel {
    const kernel = this.kernels.get(record.kernelId);
    return { id: record.id, path: record.path, name: record.name, type: record.type, kernel: kernel ? kernel.model() : null };
  }

  /** Sessions whose kernel is gone are removed, as the Jupyter server does. */
  list(): SessionModel[] {
    for (const [id, record] of this.sessions) if (!this.kernels.get(record.kernelId)) this.sessions.delete(id);
    return [...this.sessions.values()].map((r) => this.model(r));
  }

  get(id: string): SessionModel {
    const record = this.sessions.get(id);
    if (!record || !this.kernels.get(record.kernelId)) throw new RequestRefusedError({ status: 404, message: `No session ${id.slice(0, 64)}` });
    return this.model(record);
  }

  private async kernelFor(choice: KernelChoice): Promise<string> {
    if (choice?.id) {
      if (!this.kernels.get(choice.id)) throw new RequestRefusedError({ status: 400, message: `No kernel ${choice.id.slice(0, 64)}` });
      return choice.id;
    }
    if (choice?.name && choice.name !== KERNEL_NAME) throw new RequestRefusedError({ status: 400, message: `No kernel spec ${choice.name.slice(0, 64)}` });
    return (await this.kernels.start()).id;
  }

  /**
   * The session for `body.path`: the running one (as the Jupyter server answers), else a new one. `created`
   * says which (the page's early start reads it: SESSION_CREATED_HEADER in shared/rest.ts). Two requests for
   * one path while its kernel starts get the same session, not a kernel each.
   */
  async create(body: CreateSessionBody): Promise<{ model: SessionModel; created: boolean }> {
    const existing = [...this.sessions.values()].find((r) => r.path === body.path && this.kernels.get(r.kernelId));
    if (existing) return { model: this.model(existing), created: false };
    const starting = this.starting.get(body.path);
    if (starting) return { model: this.model(await starting), created: false };
    const record = this.start(body);
    this.starting.set(body.path, record);
    try {
      return { model: this.model(await record), created: true };
    } finally {
      this.starting.delete(body.path);
    }
  }

  private async start(body: CreateSessionBody): Promise<SessionRecord> {
    const record: SessionRecord = {
      id: randomUUID(),
      path: body.path,
      name: body.name ?? '',
      type: body.type ?? 'notebook',
      kernelId: await this.kernelFor(body.kernel),
    };
    this.sessions.set(record.id, record);
    if (!body.kernel?.id) void this.prepare(record);
    return record;
  }

  /**
   * Best effort: a notebook that cannot be read, or a kernel gone meanwhile, leaves nothing to prepare. The
   * notebook is read again at each restart, under the session's path at that time.
   */
  private async prepare(record: SessionRecord): Promise<void> {
    const firstCodeCell = this.firstCodeCell;
    if (!firstCodeCell) return;
    await this.kernels.get(record.kernelId)?.prepareFrom(() => firstCodeCell(record.path));
  }

  async update(id: string, patch: { path?: string; name?: string; type?: string; kernel?: KernelChoice }): Promise<SessionModel> {
    this.get(id);
    const record = this.sessions.get(id)!;
    if (patch.path !== undefined) record.path = patch.path;
    if (patch.name !== undefined) record.name = patch.name;
    if (patch.type !== undefined) record.type = patch.type;
    if (patch.kernel) {
      const next = await this.kernelFor(patch.kernel);
      if (next !== record.kernelId && !patch.kernel.id) await this.kernels.shutdown(record.kernelId);
      record.kernelId = next;
    }
    return this.model(record);
  }

  async delete(id: string): Promise<void> {
    this.get(id);
    const record = this.sessions.get(id)!;
    this.sessions.delete(id);
    await this.kernels.shutdown(record.kernelId);
  }
}
