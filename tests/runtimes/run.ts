// Runs the conformance script in every runtime the core claims, from one
// command that needs only Deno, Node.js and npm on the machine:
//
//   deno run -A tests/runtimes/run.ts
//
// 1. installs the other runtimes from npm, pinned, into .tools/ (skipped
//    when the pinned versions are already there);
// 2. builds the npm package (tasks/build.ts) and bundles the harnesses into
//    .tools/conformance/, each importing the core as "@salvor/tools";
// 3. runs the build's guard tests (tests/runtimes/*_test.ts);
// 4. runs the checks in Deno (the source, no permissions), Node.js (the
//    bundle, no code generation from strings), Bun, workerd and Vercel's
//    edge runtime (each serving the checks on a loopback port, stopped
//    afterwards), and prints every runtime's closing line.

const root = new URL("../../", import.meta.url);
const tools = new URL(".tools/", root);
const work = new URL("conformance/", tools);
const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));

/** How long one runtime may take before it is stopped and counted as failed. */
const RUNTIME_DEADLINE_MS = 120_000;
/** How long installing the runtimes may take: a fresh machine downloads about 100 MB of binaries. */
const INSTALL_DEADLINE_MS = 600_000;

function npmVersion(name: string): string {
  const match = /^npm:(?:@?[^@]+)@(.+)$/.exec(String(config.imports?.[name]));
  if (!match) throw new Error(`Cannot pin ${name} as deno.json does not map it to an npm version`);
  return match[1];
}

/** TypeScript's version, as the build task pins it (outside the import map, which holds runtime packages only). */
function typescriptVersion(): string {
  const source = Deno.readTextFileSync(new URL("../../tasks/_typescript.ts", import.meta.url));
  const match = /"npm:typescript@([^"]+)"/.exec(source);
  if (!match) throw new Error("Cannot pin typescript as tasks/_typescript.ts does not import it by an npm version");
  return match[1];
}

/** The runtimes and tools installed from npm, with the ones whose install script must run. */
const PACKAGES: Readonly<Record<string, string>> = {
  "bun": "1.4.5",
  "edge-runtime": "4.0.1",
  "workerd": "1.20261117.1",
  "typescript": typescriptVersion(),
  "valibot": npmVersion("valibot"),
};
const INSTALL_SCRIPTS = ["bun", "workerd"];

function path(url: URL): string {
  return decodeURIComponent(url.pathname);
}

async function readText(url: URL): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(url);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

interface Ran {
  readonly code: number;
  readonly output: string;
}

/** Runs a command to its end, or stops it at the deadline; stdout and stderr are merged. */
async function run(
  command: string,
  args: readonly string[],
  { cwd = root, deadlineMs = RUNTIME_DEADLINE_MS }: { cwd?: URL; deadlineMs?: number } = {},
): Promise<Ran> {
  const child = new Deno.Command(command, { args: [...args], cwd, stdout: "piped", stderr: "piped" }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), deadlineMs);
  try {
    const [stdout, stderr, status] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.status,
    ]);
    return { code: status.code, output: stdout + stderr };
  } finally {
    clearTimeout(timer);
  }
}

async function must(
  command: string,
  args: readonly string[],
  options?: { cwd?: URL; deadlineMs?: number },
): Promise<string> {
  const { code, output } = await run(command, args, options);
  if (code !== 0) throw new Error(`Cannot prepare the runtimes as "${command} ${args.join(" ")}" failed:\n${output}`);
  return output;
}

async function installTools(): Promise<void> {
  const manifest = `${
    JSON.stringify(
      {
        private: true,
        type: "module",
        description: "The runtimes the conformance run uses; written by tests/runtimes/run.ts.",
        dependencies: PACKAGES,
        // npm 11 runs no dependency install script unless it is allowed; these fetch the runtimes' binaries.
        allowScripts: Object.fromEntries(INSTALL_SCRIPTS.map((name) => [`${name}@${PACKAGES[name]}`, true])),
      },
      null,
      2,
    )
  }\n`;
  const installed = await Promise.all(
    Object.entries(PACKAGES).map(async ([name, version]) => {
      const text = await readText(new URL(`node_modules/${name}/package.json`, tools));
      return text !== undefined && JSON.parse(text).version === version;
    }),
  );
  if (await readText(new URL("package.json", tools)) === manifest && installed.every(Boolean)) {
    console.log("tools: the pinned runtimes are already in .tools/");
    return;
  }
  await Deno.mkdir(tools, { recursive: true });
  await Deno.writeTextFile(new URL("package.json", tools), manifest);
  console.log(`tools: npm install into .tools/: ${Object.entries(PACKAGES).map(([n, v]) => `${n}@${v}`).join(" ")}`);
  await must("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: tools,
    deadlineMs: INSTALL_DEADLINE_MS,
  });
}

async function bundle(entry: string, output: string, flags: readonly string[]): Promise<void> {
  await must(Deno.execPath(), [
    "bundle",
    "--quiet",
    "--platform=browser",
    ...flags,
    `--output=${path(new URL(output, work))}`,
    entry,
  ]);
}

async function prepare(): Promise<void> {
  await installTools();
  console.log(await must(Deno.execPath(), ["run", "--lock=tests/deno.lock", "-A", "tasks/build.ts"]));
  // Node.js and Bun find "@salvor/tools" in .tools/node_modules, as an installed package.
  const link = new URL("node_modules/@salvor/tools", tools);
  await Deno.remove(link).catch(() => {});
  await Deno.mkdir(new URL("./", link), { recursive: true });
  await Deno.symlink("../../../dist", path(link));
  await Deno.mkdir(work, { recursive: true });
  const external = ["--format=esm", "--external=@salvor/tools"];
  await bundle("tests/runtimes/cli.ts", "cli.js", external);
  await bundle("tests/runtimes/worker.ts", "worker.js", external);
  await bundle("tests/runtimes/fixtures/import_probe.ts", "import_probe.js", external);
  // The edge runtime runs one classic script, so the built core is bundled into it.
  const importMap = new URL("import_map.json", work);
  await Deno.writeTextFile(
    importMap,
    JSON.stringify({
      imports: {
        ...config.imports,
        "@salvor/tools": new URL("dist/mod.js", root).href,
        "@salvor/tools/dyn": new URL("dist/dyn.js", root).href,
      },
    }),
  );
  await bundle("tests/runtimes/edge.ts", "edge.js", ["--format=iife", `--import-map=${path(importMap)}`]);
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/**
 * Starts a server, waits until `findUrl` reads its address from the log and
 * it answers, fetches the checks, and stops it: no process outlives this.
 */
async function serve(
  command: string,
  args: readonly string[],
  findUrl: (log: string) => string | undefined,
): Promise<Ran> {
  const child = new Deno.Command(command, { args: [...args], cwd: root, stdout: "piped", stderr: "piped" }).spawn();
  let log = "";
  const decoder = new TextDecoder();
  const drain = (stream: ReadableStream<Uint8Array>) =>
    stream.pipeTo(new WritableStream({ write: (chunk) => void (log += decoder.decode(chunk, { stream: true })) }));
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
  let exited = false;
  const status = child.status.finally(() => exited = true);
  const deadline = Date.now() + RUNTIME_DEADLINE_MS;
  try {
    while (Date.now() < deadline && !exited) {
      const url = findUrl(log);
      if (url !== undefined) {
        try {
          const response = await fetch(url, { signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())) });
          return { code: response.ok ? 0 : 1, output: await response.text() };
        } catch (error) {
          // A TypeError is a refused connection: the server is not listening yet.
          if (!(error instanceof TypeError)) return { code: 1, output: `${String(error)}:\n${log}` };
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { code: 1, output: `${exited ? "the server exited" : "no answer before the deadline"}:\n${log}` };
  } finally {
    if (!exited) child.kill("SIGTERM");
    const stopped = await Promise.race([status, new Promise((resolve) => setTimeout(resolve, 5000, "late"))]);
    if (stopped === "late") {
      child.kill("SIGKILL");
      await status;
    }
    await drained.catch(() => {});
  }
}

interface Runtime {
  readonly name: string;
  readonly how: string;
  readonly version: () => Promise<string>;
  readonly run: () => Promise<Ran>;
}

const bin = (name: string) => path(new URL(`node_modules/.bin/${name}`, tools));
const edgeCli = path(new URL("node_modules/edge-runtime/dist/cli/index.js", tools));
const firstLine = async (command: string, args: string[]) => (await must(command, args)).trim().split("\n")[0];

const runtimes: readonly Runtime[] = [
  {
    name: "deno",
    how: "the TypeScript source, with no permissions",
    version: () => Promise.resolve(`Deno ${Deno.version.deno}`),
    run: () => run(Deno.execPath(), ["run", "--no-prompt", "tests/runtimes/cli.ts"]),
  },
  {
    name: "node",
    how: "the bundle, with --disallow-code-generation-from-strings",
    version: () => firstLine("node", ["--version"]).then((version) => `Node.js ${version}`),
    run: () => run("node", ["--disallow-code-generation-from-strings", path(new URL("cli.js", work))]),
  },
  {
    name: "bun",
    how: "the bundle",
    version: () => firstLine(bin("bun"), ["--version"]).then((version) => `Bun ${version}`),
    run: () => run(bin("bun"), [path(new URL("cli.js", work))]),
  },
  {
    name: "workerd",
    how: "the bundle in a module worker, fetched on a loopback port",
    version: () => firstLine(bin("workerd"), ["--version"]),
    run: () => {
      const address = `127.0.0.1:${freePort()}`;
      return serve(
        bin("workerd"),
        ["serve", "tests/runtimes/workerd.capnp", `--socket-addr=http=${address}`],
        () => `http://${address}/`,
      );
    },
  },
  {
    name: "edge-runtime",
    how: "the bundle in a fetch-event script, fetched on a loopback port",
    version: () => Promise.resolve(`edge-runtime ${PACKAGES["edge-runtime"]}`),
    run: () =>
      serve(
        "node",
        [edgeCli, "--listen", "--host=127.0.0.1", "--port=0", path(new URL("edge.js", work))],
        (log) => /http:\/\/127\.0\.0\.1:\d+\//.exec(log)?.[0],
      ),
  },
];

const CLOSING = /^([\w-]+): (\d+) passed, (\d+) failed$/m;

async function main(): Promise<boolean> {
  await prepare();
  console.log("=== guard tests of the build");
  const guards = await new Deno.Command(Deno.execPath(), {
    args: [
      "test",
      "--lock=tests/deno.lock",
      "--no-prompt",
      "--allow-read",
      `--allow-write=${path(tools)}`,
      "--allow-run",
      "tests/runtimes/",
    ],
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  const closing: string[] = [];
  let ok = guards.code === 0;
  for (const runtime of runtimes) {
    const version = await runtime.version();
    console.log(`=== ${runtime.name} (${version}): ${runtime.how}`);
    const { code, output } = await runtime.run();
    console.log(output.trimEnd());
    const line = CLOSING.exec(output);
    const passed = code === 0 && line !== null && line[1] === runtime.name && line[3] === "0" && line[2] !== "0";
    closing.push(`${passed ? "ok  " : "FAIL"} ${version}: ${line?.[0] ?? `no closing line (exit code ${code})`}`);
    ok &&= passed;
  }
  console.log("=== runtimes");
  for (const line of closing) console.log(line);
  return ok;
}

try {
  Deno.exit(await main() ? 0 : 1);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  Deno.exit(1);
}
