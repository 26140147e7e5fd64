/**
 * The `openai` package, imported by the first request: a process importing the library that never calls a model
 * (most notebook kernels, until a Natural block runs) does not hold it (~2 MB of heap, more of compiled code).
 * Dynamic import gives the same module instance a static import would, so `instanceof` on its errors holds.
 */
import type * as OpenAIModule from 'openai';
import { DependencyUnavailableError } from '../core/index.js';

let loaded: typeof OpenAIModule | undefined;

/** Throws DependencyUnavailableError (never retried) when the package cannot be imported. */
export async function loadOpenAI(): Promise<typeof OpenAIModule> {
  if (loaded) return loaded;
  try {
    loaded = await import('openai');
  } catch (cause) {
    // Not a request failure: without this, a broken install read as "is the server running?".
    throw new DependencyUnavailableError({ dependency: 'openai', neededFor: 'model requests', cause });
  }
  return loaded;
}

/** The package if a request has imported it: only then can an error be one of its classes. */
export function loadedOpenAI(): typeof OpenAIModule | undefined {
  return loaded;
}
