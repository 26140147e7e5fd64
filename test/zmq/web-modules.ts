/**
 * The web notebook's connection and session modules, loaded at run time: they are typed for the DOM (web's
 * tsconfig), so the root type-check (Node lib) must not follow them. The shapes used here are declared below.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Kernel, ServerConnection } from '@jupyterlab/services';
import { root } from './zmq-fixture.js';

/** The part of `Location` the web's connection module reads. */
export interface PageLocation {
  href: string;
}

export interface WebConnection {
  pageServer(loc: PageLocation): URL | undefined;
  serverSettings(token: string, loc: PageLocation): ServerConnection.ISettings;
}

export interface WebKernelSession {
  readonly kernel: Kernel.IKernelConnection | null;
  open(path: string): Promise<void>;
  close(): Promise<void>;
}

const load = (file: string): Promise<unknown> => import(pathToFileURL(path.join(root, 'web', 'src', file)).href);

export const webConnection = async (): Promise<WebConnection> => (await load('connection.ts')) as WebConnection;

export async function webKernelSession(settings: ServerConnection.ISettings): Promise<WebKernelSession> {
  const { KernelSession } = (await load('kernel-session.ts')) as { KernelSession: new (settings: ServerConnection.ISettings) => WebKernelSession };
  return new KernelSession(settings);
}
