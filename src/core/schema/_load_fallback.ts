// The fallback validator loads apart from the core, the first time a schema
// needs it: few schemas do, and `@cfworker/json-schema` would otherwise be
// the largest part of every bundle of the core. A bundler splits the dynamic
// import into a chunk of its own.

import type { compileFallback } from "./_cfworker.ts";

let loaded: typeof compileFallback | undefined;
let loading: Promise<void> | undefined;

/**
 * The fallback's compile function, once it has loaded.
 *
 * @returns The function, or `undefined` before {@linkcode loadFallback} settles.
 */
export function loadedFallback(): typeof compileFallback | undefined {
  return loaded;
}

/**
 * Loads the fallback validator; every call after the first gets the same promise.
 *
 * @returns Settles once {@linkcode loadedFallback} answers.
 * @throws {Error} Rejects when the module cannot load.
 */
export function loadFallback(): Promise<void> {
  loading ??= import("./_cfworker.ts").then((module) => {
    loaded = module.compileFallback;
  });
  return loading;
}
