// What an app loads of a bundle split into chunks (Deno's bundler with
// --code-splitting): the entry file and every chunk it imports statically
// load up front; a chunk reached only through a dynamic `import()` loads on
// first need. Read from the bundler's ESM output, whose chunk imports are
// relative (`./chunk-HASH.js`).

/** The chunks a bundle file imports. */
export interface ChunkImports {
  /** Imported statically: they load with the file. */
  readonly loads: readonly string[];
  /** Imported with `import()`: they load on first need. */
  readonly defers: readonly string[];
}

/**
 * Reads the chunks a bundle file imports, by file name.
 *
 * @param code The file's code.
 * @returns Its static and dynamic chunk imports.
 */
export function chunkImports(code: string): ChunkImports {
  const names = (pattern: RegExp) => [...code.matchAll(pattern)].map((match) => match[1]);
  return {
    loads: names(/(?:\bfrom|\bimport)\s*"\.\/([^"]+)"/g),
    defers: names(/\bimport\(\s*"\.\/([^"]+)"\s*\)/g),
  };
}

/**
 * The files that load with an entry: it and every chunk it imports
 * statically, directly or through another.
 *
 * @param files Each file's chunk imports, by file name.
 * @param entry The entry file's name.
 * @returns The names of the files loaded up front.
 * @throws {Error} When a file imports a chunk that is not among the files.
 */
export function loadedWith(files: ReadonlyMap<string, ChunkImports>, entry: string): Set<string> {
  const loaded = new Set<string>();
  const queue = [entry];
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    if (loaded.has(name)) continue;
    const file = files.get(name);
    if (file === undefined) throw new Error(`Cannot read the split bundle as ${name} is not among its files`);
    loaded.add(name);
    queue.push(...file.loads);
  }
  return loaded;
}
