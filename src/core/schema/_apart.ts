// The parts of validation that load apart from the core, the first time a
// schema needs them: the fallback validator (`@cfworker/json-schema`, for
// what the compiled validator does not implement) and the format scanners
// (for `formats: "assert"`). Few schemas need either; a bundler splits each
// dynamic import into a chunk of its own.

import type { compileFallback } from "./_cfworker.ts";
import type { FormatScanners } from "./validator/_format_names.ts";

/** A module loaded on first need, read through what it provides. */
export interface Apart<T> {
  /** What the module provides, once loaded; `undefined` before. */
  readonly loaded: T | undefined;
  /**
   * Loads it; every call after the first gets the same promise.
   *
   * @returns Settles once `loaded` answers.
   * @throws {Error} Rejects when the module cannot load.
   */
  load(): Promise<void>;
}

function apart<T>(importer: () => Promise<T>): Apart<T> {
  let loaded: T | undefined;
  let loading: Promise<void> | undefined;
  return {
    get loaded() {
      return loaded;
    },
    load: () =>
      loading ??= importer().then((value) => {
        loaded = value;
      }),
  };
}

/** The fallback validator's compile function. */
export const FALLBACK: Apart<typeof compileFallback> = apart(() =>
  import("./_cfworker.ts").then((module) => module.compileFallback)
);

/** The format scanners. */
export const SCANNERS: Apart<FormatScanners> = apart(() =>
  import("./validator/_formats.ts").then((module) => module.FORMATS)
);
