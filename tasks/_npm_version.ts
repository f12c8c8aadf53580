// The npm versions deno.json's import map pins: the one source the npm
// build's dependencies and the package test's installs read them from.

const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));

/**
 * The npm version deno.json maps a package to, e.g. "valibot" → "1.5.0".
 *
 * @param name The package's name, as a bare specifier of the import map.
 * @returns The version (or range) after the `@` of its `npm:` specifier.
 * @throws {Error} When deno.json maps the name to no npm package of that name.
 */
export function npmVersion(name: string): string {
  const mapped: unknown = config.imports?.[name];
  const match = typeof mapped === "string" ? /^npm:(@?[^@]+)@(.+)$/.exec(mapped) : null;
  if (!match || match[1] !== name) {
    throw new Error(
      `Cannot pin "${name}" as deno.json does not map it to an npm package of that name: current value is ${
        JSON.stringify(mapped)
      }`,
    );
  }
  return match[2];
}
