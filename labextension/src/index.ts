/**
 * A JupyterLab MIME renderer extension for Nighthawk's run view, ledger and operation MIME types, built
 * from the web notebook's own renderers (web/src/outputs), so both frontends draw the same thing.
 * Approval cards need the notebook's stdin bridge and stay text/plain here.
 */
import type { IRenderMime } from '@jupyterlab/rendermime-interfaces';
import { Widget } from '@lumino/widgets';
import { NighthawkMime } from '../../shared/mime.js';
import { renderBundle } from '../../web/src/outputs/render-mime.js';

/** The MIME types this extension renders (richest first, as the web notebook ranks them). */
export const MIME_TYPES: readonly string[] = [
  NighthawkMime.run,
  NighthawkMime.ledger,
  NighthawkMime.execution,
  NighthawkMime.operation,
  NighthawkMime.stepCommit,
  NighthawkMime.traceAnomaly,
  NighthawkMime.allocationExhausted,
];

export class NighthawkRenderer extends Widget implements IRenderMime.IRenderer {
  constructor(private readonly mimeType: string) {
    super();
    this.addClass('nh-lab-output');
  }

  /** Renders one MIME type of the model; a payload the schemas reject falls back to its text/plain. */
  renderModel(model: IRenderMime.IMimeModel): Promise<void> {
    const data = model.data as Record<string, unknown>;
    const bundle: Record<string, unknown> = { [this.mimeType]: data[this.mimeType] };
    if (typeof data['text/plain'] === 'string') bundle['text/plain'] = data['text/plain'];
    // No approvals here (see above): the answer sink is never reachable from these types.
    this.node.replaceChildren(renderBundle(bundle, { answerApproval: () => {} }));
    return Promise.resolve();
  }
}

export const rendererFactory: IRenderMime.IRendererFactory = {
  safe: true,
  mimeTypes: [...MIME_TYPES],
  defaultRank: 50,
  createRenderer: (options: IRenderMime.IRendererOptions) => new NighthawkRenderer(options.mimeType),
};

const extension: IRenderMime.IExtension = {
  id: 'nighthawk-ts-renderer:plugin',
  description: 'Renders Nighthawk run views and ledgers',
  rendererFactory,
  rank: 50,
  dataType: 'json',
};

export default extension;
