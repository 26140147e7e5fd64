/**
 * JupyterLab 4's page loader for federated extensions, as browser script for the labextension tests:
 * a script tag for the extension's remoteEntry, `container.init(shareScope)`, then `container.get(module)`
 * and a call of the factory it resolves to. The page's @lumino/widgets enters the share scope the way
 * JupyterLab's webpack runtime registers it (name → version → { get, from, eager, loaded }).
 */
export const FEDERATED_LOADER = `
window.nhLoadFederated = async ({ ext, extensionsUrl, luminoUrl, luminoVersion, shareLumino }) => {
  await new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = extensionsUrl + '/' + ext.name + '/' + ext.load;
    script.onload = resolve;
    script.onerror = () => reject(new Error('remoteEntry did not load: ' + script.src));
    document.head.appendChild(script);
  });
  const container = window._JUPYTERLAB[ext.name];
  window.lumino = await import(luminoUrl);
  const scope = {};
  if (shareLumino) scope['@lumino/widgets'] = { [luminoVersion]: { get: () => Promise.resolve(() => window.lumino), from: 'jupyterlab', eager: false, loaded: 1 } };
  await container.init(scope);
  window.nhModule = async (name) => (await container.get(name))();
};
window.nhRender = async ({ mimeExtension, style, mimeType, data }) => {
  if (!window.nhExt) {
    if (style) await window.nhModule(style);
    const mod = await window.nhModule(mimeExtension);
    window.nhExt = Array.isArray(mod.default) ? mod.default : [mod.default];
  }
  const ext = window.nhExt.find((e) => e.rendererFactory.mimeTypes.includes(mimeType));
  const widget = ext.rendererFactory.createRenderer({ mimeType, sanitizer: { sanitize: (s) => s }, resolver: null, linkHandler: null, latexTypesetter: null });
  const done = widget.renderModel({ trusted: false, data, metadata: {}, setData: () => {} });
  await done;
  window.lumino.Widget.attach(widget, document.getElementById('host'));
  return { isPromise: done instanceof Promise, pageWidget: widget instanceof window.lumino.Widget, attached: widget.isAttached, text: widget.node.textContent, className: widget.node.className };
};
`;

export interface FederatedExtension {
  name: string;
  load: string;
  mimeExtension?: string;
  style?: string;
}

export interface Rendered {
  isPromise: boolean;
  pageWidget: boolean;
  attached: boolean;
  text: string;
  className: string;
}
