/**
 * The notebook's Jupyter session (path → kernel) through @jupyterlab/services (loaded by open(), so the page
 * can construct this before that chunk arrives), and one status value for the UI that folds together kernel
 * status and WebSocket connection status.
 */
import type { Kernel, KernelConnection, KernelSpec, ServerConnection, Session } from '@jupyterlab/services';
import { NIGHTHAWK_KERNEL } from '../../shared/rest.js';
import { BACKGROUND_REQUESTS } from './background-requests.js';
import { earlySession } from './early-requests.js';
import { loadServices, type Services } from './services-loader.js';

export { NIGHTHAWK_KERNEL };

/** Services' classes with the page's settings. */
interface Api {
  services: Services;
  settings: ServerConnection.ISettings;
}

export type KernelDisplayStatus = 'no kernel' | 'starting' | 'idle' | 'busy' | 'restarting' | 'disconnected' | 'connecting' | 'dead' | 'unknown';

export class KernelSession {
  private session: Session.ISessionConnection | null = null;
  /** The session the last open() started itself (rather than found). */
  private started: Session.ISessionConnection | null = null;
  private listeners = new Set<(status: KernelDisplayStatus) => void>();
  /**
   * A kernel still loading answers kernel_info (busy, idle) and the server follows with "starting": the idle
   * of a kernel_info reads as "starting" until the server's kernel model confirms it (one REST round trip)
   * or another status arrives, so the status never says idle before the kernel can run code.
   */
  private holdIdle = false;
  /** Services' classes and the settings, once open() has loaded them (the page draws its notebook meanwhile). */
  private api: Api | undefined;

  constructor(private readonly settings: ServerConnection.ISettings | Promise<ServerConnection.ISettings>) {}

  private async loadApi(): Promise<Api> {
    const [services, settings] = await Promise.all([loadServices(), this.settings]);
    this.api ??= { services, settings };
    return this.api;
  }

  /**
   * A connection no manager owns. The session and kernel managers poll the server's lists and dispose (or
   * mark dead) every connection missing from an answer, and a poll sent before our session was started can
   * answer after it: the notebook would be left with no kernel. A kernel shut down elsewhere is still seen:
   * its WebSocket closes and the kernel connection, asking the server, reports it dead.
   */
  private connect({ services, settings }: Api, model: Session.IModel): Session.ISessionConnection {
    return new services.SessionConnection({
      model,
      serverSettings: settings,
      connectToKernel: (options: Kernel.IKernelConnection.IOptions) => new services.KernelConnection(options),
    });
  }

  get kernel(): Kernel.IKernelConnection | null {
    return this.session?.kernel ?? null;
  }

  get status(): KernelDisplayStatus {
    const kernel = this.kernel;
    if (!kernel) return 'no kernel';
    if (kernel.status === 'dead') return 'dead';
    if (kernel.connectionStatus === 'disconnected') return 'disconnected';
    if (kernel.connectionStatus === 'connecting' && kernel.status !== 'restarting') return 'connecting';
    // A restarted kernel reports 'unknown' until its first status message: it is starting.
    if (kernel.status === 'unknown') return 'starting';
    if (kernel.status === 'idle' && this.holdIdle) return 'starting';
    return kernel.status as KernelDisplayStatus;
  }

  onStatus(listener: (status: KernelDisplayStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(): void {
    const status = this.status;
    for (const l of this.listeners) l(status);
  }

  /** Connects to the session for `path`, starting one (the `nighthawk` kernelspec, else the default) when none exists. */
  async open(path: string): Promise<void> {
    await this.close();
    const early = earlySession(path);
    const api = await this.loadApi();
    const { services: { KernelAPI }, settings } = api;
    const { model, found } = (await early) ?? (await this.findOrStart(api, path));
    const session = this.connect(api, model);
    if (!found) this.started = session;
    this.session = session;
    // The server said the kernel could already run code (a warm pool kernel, or one found running): its first
    // kernel_info idle is believed without asking again, one round trip off a new notebook's start.
    let believeFirstIdle = model.kernel?.execution_state === 'idle' || model.kernel?.execution_state === 'busy';
    // Emitted after the message is handled, so a kernel_info's idle is known to be one (iopubMessage comes later).
    session.statusChanged.connect(() => queueMicrotask(() => this.emit()));
    session.iopubMessage.connect((_, msg) => {
      if (msg.header.msg_type !== 'status') return;
      const parent = msg.parent_header as { msg_type?: string };
      if (BACKGROUND_REQUESTS.includes(parent.msg_type ?? '')) return;
      const state = (msg.content as { execution_state?: string }).execution_state;
      if (parent.msg_type !== 'kernel_info_request' || state !== 'idle') {
        // A restart's kernel_info is held again.
        if (state === 'restarting' || state === 'starting') believeFirstIdle = false;
        this.holdIdle = false;
        return;
      }
      const kernel = session.kernel;
      if (!kernel) return;
      if (believeFirstIdle) {
        believeFirstIdle = false;
        this.holdIdle = false;
        return;
      }
      this.holdIdle = true;
      void KernelAPI.getKernelModel(kernel.id, settings).then(
        (model) => model?.execution_state !== 'starting',
        () => true,
      ).then((ready) => {
        if (!ready || this.session !== session || !this.holdIdle) return;
        this.holdIdle = false;
        this.emit();
      });
    });
    session.connectionStatusChanged.connect((_, status) => {
      if (status === 'connecting') this.checkKernelGone(session);
      this.emit();
    });
    session.kernelChanged.connect(() => this.emit());
    this.emit();
  }

  /** The running session for `path`, or a new one; `found` says which. */
  private async findOrStart(api: Api, path: string): Promise<{ model: Session.IModel; found: boolean }> {
    const { services: { KernelSpecAPI, SessionAPI }, settings } = api;
    // Asked together: the kernelspecs are needed only when no session exists, but waiting for that answer
    // first would add a round trip to every new notebook's start. The REST calls are made directly: a
    // session manager's find and start each add a refresh of its whole list (two more round trips before the
    // kernel's WebSocket opens).
    const specsRequest = KernelSpecAPI.getSpecs(settings).catch(() => undefined);
    const running = await SessionAPI.listRunning(settings).catch(() => [] as Session.IModel[]);
    const existing = running.find((m) => m.path === path);
    const model = existing ?? (await this.startSession(api, path, await specsRequest));
    return { model, found: existing !== undefined };
  }

  private startSession({ services, settings }: Api, path: string, specs: KernelSpec.ISpecModels | undefined): Promise<Session.IModel> {
    // A Jupyter server's default kernel is usually python3; the installed Nighthawk kernelspec wins.
    const name = specs?.kernelspecs[NIGHTHAWK_KERNEL] ? NIGHTHAWK_KERNEL : specs?.default;
    return services.SessionAPI.startSession({ path, type: 'notebook', name: path.split('/').pop() ?? path, ...(name ? { kernel: { name } } : {}) }, settings);
  }

  /**
   * A kernel connection reconnecting after its socket closed asks the server only if the socket closes before
   * it opens, and a server answers 404 for a kernel it shut down: without a manager's poll it would retry for
   * minutes. One REST question settles it; a kernel gone from the server is dead.
   */
  private checkKernelGone(session: Session.ISessionConnection): void {
    const kernel = session.kernel;
    const api = this.api;
    if (!kernel || !api) return;
    void api.services.KernelAPI.getKernelModel(kernel.id, api.settings).then((model) => {
      if (model === undefined && this.session === session && session.kernel === kernel && !kernel.isDisposed) (kernel as KernelConnection).handleShutdown();
    }, () => {});
  }

  /** Shuts down the session `open(path)` started (not one it found): its notebook could not be opened. */
  async discardIfStarted(path: string): Promise<void> {
    const session = this.started;
    if (!session || session !== this.session || session.path !== path) return;
    this.session = this.started = null;
    await session.shutdown();
    this.emit();
  }

  async rename(path: string): Promise<void> {
    await this.session?.setPath(path);
  }

  async interrupt(): Promise<void> {
    await this.kernel?.interrupt();
  }

  async restart(): Promise<void> {
    await this.kernel?.restart();
  }

  /** Disconnects from the session without shutting the kernel down (other tabs may use it). */
  async close(): Promise<void> {
    const session = this.session;
    this.session = this.started = null;
    session?.dispose();
    this.emit();
  }
}
