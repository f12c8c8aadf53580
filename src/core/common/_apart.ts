// A module loaded apart from the core, the first time something needs it. Its
// owner names it in a literal `import("./...")`, as bundlers and `deno publish`
// need, so a bundler splits it into a chunk of its own and an app that never
// needs it never loads it.

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
  /**
   * Hands what the module provides to `work`: at once when it has loaded, so
   * that every use after the first runs as if the module were part of the
   * core, and once it has loaded otherwise.
   *
   * @param work What needs the module.
   * @returns What `work` returns, or a promise of it while the module loads.
   * @throws {Error} Rejects when the module cannot load; whatever `work` throws.
   */
  use<R>(work: (loaded: T) => R | Promise<R>): R | Promise<R>;
}

/**
 * Makes the handle of a module loaded on first need. Call it as the core
 * loads (at the top level of a module), not within a call.
 *
 * @param importer Imports the module and reads what it provides; called once, on first need.
 * @returns The handle; nothing is loaded yet.
 */
export function apart<T>(importer: () => Promise<T>): Apart<T> {
  let loaded: T | undefined;
  let begin!: () => void;
  // The import runs in a reaction set up now, so in the async context the core was loaded in, not in the one of
  // the call that first needs it: Deno keeps the context an `import()` is called in (an AsyncLocalStorage store,
  // such as one request's or one agent run's) for the tasks its runtime starts afterwards, such as the next request.
  const loading = new Promise<void>((resolve) => begin = resolve).then(importer).then((value) => {
    loaded = value;
  });
  // A failed load reaches whoever awaits it, never the host as an unhandled rejection, however many start it.
  loading.catch(() => {});
  const handle: Apart<T> = {
    get loaded() {
      return loaded;
    },
    load: () => {
      begin();
      return loading;
    },
    use: (work) => useLoaded(handle, work),
  };
  return handle;
}

/** `use` of a handle: `work` at once when the module has loaded, once it has otherwise. */
function useLoaded<T, R>(handle: Apart<T>, work: (loaded: T) => R | Promise<R>): R | Promise<R> {
  const loaded = handle.loaded;
  return loaded !== undefined ? work(loaded) : handle.load().then(() => work(handle.loaded!));
}

/**
 * The handle of a module imported up front, for code that takes a module loaded on first need: it has loaded.
 *
 * @param value What the module provides.
 * @returns The handle, loaded.
 */
export function present<T>(value: T): Apart<T> {
  const loaded = Promise.resolve();
  return { loaded: value, load: () => loaded, use: (work) => work(value) };
}

/**
 * The handle of two modules loaded on first need, used together: loaded once both have. With `needs`, the second
 * loads only when the first, once loaded, says it is needed (a large module that few uses need), and the pair holds
 * `undefined` in its place when it was not.
 *
 * @param first One module's handle.
 * @param second The other's.
 * @param needs Whether the second is needed, asked of what the first provides; always, when absent.
 * @returns Their handle, providing both.
 */
export function joined<A, B>(first: Apart<A>, second: Apart<B>): Apart<readonly [A, B]>;
export function joined<A, B>(
  first: Apart<A>,
  second: Apart<B>,
  needs: (first: A) => boolean,
): Apart<readonly [A, B | undefined]>;
export function joined<A, B>(
  first: Apart<A>,
  second: Apart<B>,
  needs?: (first: A) => boolean,
): Apart<readonly [A, B | undefined]> {
  return new Joined(first, second, needs);
}

// A class, its methods shared: a schema makes one of these for its parts, and ten thousand tools' schemas each
// holding closures and a promise chain of their own doubled the heap a registered tool holds.
class Joined<A, B> implements Apart<readonly [A, B | undefined]> {
  readonly #first: Apart<A>;
  readonly #second: Apart<B>;
  readonly #needs: ((first: A) => boolean) | undefined;
  #both: readonly [A, B | undefined] | undefined;
  #loading: Promise<void> | undefined;
  // Asked once, of the first once it has loaded.
  #needed: boolean | undefined;

  constructor(first: Apart<A>, second: Apart<B>, needs: ((first: A) => boolean) | undefined) {
    this.#first = first;
    this.#second = second;
    this.#needs = needs;
    this.#needed = needs === undefined ? true : undefined;
  }

  get loaded(): readonly [A, B | undefined] | undefined {
    const one = this.#first.loaded;
    if (this.#both === undefined && one !== undefined) {
      const other = this.#second.loaded;
      if (other !== undefined) this.#both = [one, other];
      else if (!this.#isNeeded(one)) this.#both = [one, undefined];
    }
    return this.#both;
  }

  load(): Promise<void> {
    if (this.#loading === undefined) {
      // The second starts loading now when it is always needed, and once the first has loaded when that decides.
      const second = this.#needs === undefined ? this.#second.load() : undefined;
      const loading = this.#first.load().then(() =>
        second ?? (this.#isNeeded(this.#first.loaded!) ? this.#second.load() : undefined)
      );
      // As for one module: a failed load reaches whoever awaits it, never the host as an unhandled rejection.
      loading.catch(ignore);
      this.#loading = loading;
    }
    return this.#loading;
  }

  use<R>(work: (loaded: readonly [A, B | undefined]) => R | Promise<R>): R | Promise<R> {
    return useLoaded(this, work);
  }

  #isNeeded(one: A): boolean {
    return this.#needed ??= this.#needs!(one);
  }
}

function ignore(): void {}
