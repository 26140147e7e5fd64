/**
 * Builds the prebuilt JupyterLab extension (npm run build:labextension):
 *   1. vite bundles src/index.ts with the web notebook's renderers into lib/index.js, leaving @lumino/*
 *      and @jupyterlab/* as imports (the page shares them);
 *   2. style/index.css is style/theme.css plus the web notebook's renderer rules, scoped (scope-css.ts);
 *   3. @jupyterlab/builder's build-labextension turns that package into JupyterLab's module-federation
 *      format (static/remoteEntry.<hash>.js, package.json with jupyterlab._build), reading the shared
 *      versions from core/package.json instead of the Python jupyterlab package's staging directory.
 * Everything happens in a fresh `.staging-*` directory beside this folder, then the result is copied to
 * --out (default labextension/prebuilt). Staging at the same depth keeps webpack's module ids (paths
 * relative to the working directory) the same for every build, so a build is reproducible byte for byte.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'vite';
import { scopeRendererCss } from './scope-css.js';

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(here, '..');

export const OUTPUT_SCOPE = '.nh-lab-output';

/** The extension's stylesheet: the theme mapping, then the web notebook's renderer rules under the scope. */
export function extensionCss(): string {
  const theme = readFileSync(path.join(here, 'style', 'theme.css'), 'utf8');
  const web = readFileSync(path.join(repoRoot, 'web', 'src', 'styles.css'), 'utf8');
  return `${theme}\n/* Generated from web/src/styles.css by labextension/scripts/build.ts: do not edit here. */\n${scopeRendererCss(web, OUTPUT_SCOPE, 'nh-lab-')}`;
}

export async function buildLabExtension(out: string): Promise<void> {
  const staging = mkdtempSync(path.join(here, '.staging-'));
  try {
    await build({ configFile: path.join(here, 'vite.config.ts'), logLevel: 'error', build: { outDir: path.join(staging, 'lib'), emptyOutDir: true } });
    mkdirSync(path.join(staging, 'style'));
    writeFileSync(path.join(staging, 'style', 'index.css'), extensionCss());
    for (const file of ['package.json', 'webpack.config.cjs']) cpSync(path.join(here, file), path.join(staging, file));
    const builder = path.join(path.dirname(createRequire(import.meta.url).resolve('@jupyterlab/builder/package.json')), 'lib', 'build-labextension.js');
    const run = spawnSync(process.execPath, [builder, '--core-path', path.join(here, 'core'), '.'], { cwd: staging, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`build-labextension failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
    const built = JSON.parse(readFileSync(path.join(staging, 'prebuilt', 'package.json'), 'utf8')) as { jupyterlab?: { _build?: { load?: string } } };
    const load = built.jupyterlab?._build?.load;
    if (!load || !existsSync(path.join(staging, 'prebuilt', load))) throw new Error('build-labextension wrote no remoteEntry (package.json has no jupyterlab._build.load)');
    rmSync(out, { recursive: true, force: true });
    cpSync(path.join(staging, 'prebuilt'), out, { recursive: true });
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const out = path.resolve(values.out ?? path.join(here, 'prebuilt'));
  await buildLabExtension(out);
  process.stdout.write(`Built ${out}\n`);
}
