// What running the package in other runtimes needs, installed from npm: the
// runtimes (Bun, workerd, Vercel's edge runtime), pinned, into .tools/; and
// the npm build of the package (tasks/build.ts) into dist/. Shared by the
// cross-runtime run (run.ts) and the benchmarks' Node.js and Bun rows.

import { must } from "./_process.ts";

const root = new URL("../../", import.meta.url);

/** Where the runtimes are installed. */
export const tools: URL = new URL(".tools/", root);

/** How long installing the runtimes may take: a fresh machine downloads about 100 MB of binaries. */
const INSTALL_DEADLINE_MS = 600_000;

/** The runtimes installed from npm, with the ones whose install script must run. */
export const RUNTIME_PACKAGES: Readonly<Record<string, string>> = {
  "bun": "1.4.5",
  "edge-runtime": "4.0.1",
  "workerd": "1.20261117.1",
};
const INSTALL_SCRIPTS = ["bun", "workerd"];

/** The path of an installed runtime's command, e.g. `bun`. */
export function runtimeBin(name: string): string {
  return decodeURIComponent(new URL(`node_modules/.bin/${name}`, tools).pathname);
}

async function readText(url: URL): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(url);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** Installs the pinned runtimes into .tools/, unless they are there already; `log` hears what it does. */
export async function installRuntimes(log: (line: string) => void = console.log): Promise<void> {
  const manifest = `${
    JSON.stringify(
      {
        private: true,
        type: "module",
        description: "The runtimes the conformance run uses; written by tests/runtimes/run.ts.",
        dependencies: RUNTIME_PACKAGES,
        // npm 11 runs no dependency install script unless it is allowed; these fetch the runtimes' binaries.
        allowScripts: Object.fromEntries(INSTALL_SCRIPTS.map((name) => [`${name}@${RUNTIME_PACKAGES[name]}`, true])),
      },
      null,
      2,
    )
  }\n`;
  const installed = await Promise.all(
    Object.entries(RUNTIME_PACKAGES).map(async ([name, version]) => {
      const text = await readText(new URL(`node_modules/${name}/package.json`, tools));
      return text !== undefined && JSON.parse(text).version === version;
    }),
  );
  if (await readText(new URL("package.json", tools)) === manifest && installed.every(Boolean)) {
    log("tools: the pinned runtimes are already in .tools/");
    return;
  }
  await Deno.mkdir(tools, { recursive: true });
  await Deno.writeTextFile(new URL("package.json", tools), manifest);
  const list = Object.entries(RUNTIME_PACKAGES).map(([name, version]) => `${name}@${version}`).join(" ");
  log(`tools: npm install into .tools/: ${list}`);
  await must("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: tools,
    deadlineMs: INSTALL_DEADLINE_MS,
  });
}

/** Builds the npm package into dist/ and returns the build's report. */
export function buildPackage(): Promise<string> {
  return must(Deno.execPath(), ["run", "--lock=tests/deno.lock", "-A", "tasks/build.ts"]);
}
