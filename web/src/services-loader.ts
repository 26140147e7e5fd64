/**
 * The services chunk (services.ts), loaded once, and what the page reaches through it without waiting for it
 * at construction: the Contents API as a lazy manager whose first notebook read can be the early response.
 */
import type { Contents, ServerConnection } from '@jupyterlab/services';
import { earlyNotebook } from './early-requests.js';
import { markLoad } from './load-marks.js';

export type Services = typeof import('./services.js');

let loading: Promise<Services> | undefined;

export function loadServices(): Promise<Services> {
  loading ??= import('./services.js').then((services) => {
    markLoad('services-loaded');
    return services;
  });
  return loading;
}

/** The Contents API calls the page makes. */
export type ContentsApi = Pick<Contents.IManager, 'get' | 'save' | 'rename' | 'delete'>;

/** A ContentsManager made once the services chunk has loaded; a notebook the page asked for early is read from that response. */
export class LazyContents implements ContentsApi {
  private manager: Promise<Contents.IManager> | undefined;

  constructor(private readonly settings: Promise<ServerConnection.ISettings>) {}

  private ready(): Promise<Contents.IManager> {
    this.manager ??= Promise.all([loadServices(), this.settings]).then(([services, serverSettings]) => new services.ContentsManager({ serverSettings }));
    return this.manager;
  }

  async get(path: string, options?: Contents.IFetchOptions): Promise<Contents.IModel> {
    const early = options?.type === 'notebook' && options.content ? await earlyNotebook(path) : undefined;
    return early ?? (await this.ready()).get(path, options);
  }

  async save(path: string, options?: Partial<Contents.IModel>): Promise<Contents.IModel> {
    return (await this.ready()).save(path, options);
  }

  async rename(path: string, newPath: string): Promise<Contents.IModel> {
    return (await this.ready()).rename(path, newPath);
  }

  async delete(path: string): Promise<void> {
    return (await this.ready()).delete(path);
  }
}
