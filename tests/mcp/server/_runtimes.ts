// The runtimes the fetch handler is served from in the tests: Node.js from
// the machine, and Bun, workerd and Vercel's edge runtime from npm, pinned
// as tests/runtimes/run.ts pins them. Their binaries are taken from
// .tools/node_modules when the runtimes step installed them there, else
// installed once into .tools/mcp-server/runtimes/.

const ROOT = new URL("../../../", import.meta.url);
const TOOLS = new URL(".tools/", ROOT);
const OWN = new URL("mcp-server/runtimes/", TOOLS);

/** The runtimes from npm, at the versions tests/runtimes/run.ts installs. */
const PACKAGES: Readonly<Record<string, string>> = {
  "bun": "1.4.5",
  "edge-runtime": "4.0.1",
  "workerd": "1.20261117.1",
};
const INSTALL_SCRIPTS = ["bun", "workerd"];
const INSTALL_DEADLINE_MS = 600_000;

/** A URL as a file path. */
export function path(url: URL): string {
  return decodeURIComponent(url.pathname);
}

async function versionAt(base: URL, name: string): Promise<string | undefined> {
  try {
    return JSON.parse(await Deno.readTextFile(new URL(`node_modules/${name}/package.json`, base))).version;
  } catch {
    return undefined;
  }
}

async function run(command: string, args: string[], options: { cwd?: URL; env?: Record<string, string> } = {}) {
  const { code, stdout, stderr } = await new Deno.Command(command, {
    args,
    cwd: options.cwd ?? ROOT,
    env: options.env,
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(INSTALL_DEADLINE_MS),
  }).output();
  const output = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
  if (code !== 0) throw new Error(`Cannot prepare the runtimes as "${command} ${args.join(" ")}" failed:\n${output}`);
}

/** The directory whose node_modules holds every pinned runtime, installing them when none does. */
export async function runtimesHome(): Promise<URL> {
  for (const base of [TOOLS, OWN]) {
    const versions = await Promise.all(Object.keys(PACKAGES).map((name) => versionAt(base, name)));
    if (Object.values(PACKAGES).every((version, i) => versions[i] === version)) return base;
  }
  await Deno.mkdir(OWN, { recursive: true });
  await Deno.writeTextFile(
    new URL("package.json", OWN),
    JSON.stringify({
      private: true,
      dependencies: PACKAGES,
      // npm 11 runs no dependency install script unless it is allowed; these fetch the runtimes' binaries.
      allowScripts: Object.fromEntries(INSTALL_SCRIPTS.map((name) => [`${name}@${PACKAGES[name]}`, true])),
    }),
  );
  await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: OWN });
  return OWN;
}

/** Bundles an entry into `.tools/<output>`: `node` resolves npm packages for Node.js; `workerd` and `browser` for the edge. */
export async function bundle(
  entry: string,
  output: string,
  target: { condition: "node" | "workerd" | "browser"; format: "esm" | "iife" },
): Promise<string> {
  const out = new URL(output, TOOLS);
  await Deno.mkdir(new URL("./", out), { recursive: true });
  await run(Deno.execPath(), [
    "bundle",
    "--quiet",
    `--platform=${target.condition === "node" ? "deno" : "browser"}`,
    `--format=${target.format}`,
    `--output=${path(out)}`,
    entry,
  ], { env: target.condition === "node" ? {} : { DENO_CONDITIONS: target.condition } });
  return path(out);
}

/** The `node:` modules a bundle imports, leaving out the ones its doc comments quote. */
export function nodeImports(code: string): string[] {
  return [...code.matchAll(/^\s*import\b[^*\n]*?from\s*"(node:[^"]+)"|\b(?:require|import)\(\s*"(node:[^"]+)"\s*\)/gm)]
    .map((match) => match[1] ?? match[2]);
}
