// Runs the conformance script in every runtime the core claims, from one
// command that needs only Deno, Node.js and npm on the machine:
//
//   deno run -A tests/runtimes/run.ts
//
// 1. installs the other runtimes from npm, pinned, into .tools/ (skipped
//    when the pinned versions are already there);
// 2. builds the npm package (tasks/build.ts), installs it with npm into a
//    scratch Node.js project (tests/runtimes/_npm_consumer.ts), and bundles
//    the harnesses, each importing the package as "@salvor/tools": for
//    Node.js and Bun into that project, resolving the installed package and
//    its dependencies as a user's script does; for workerd and the edge
//    runtime into .tools/conformance/, one file each with the build and its
//    dependencies inlined;
// 3. runs the build's guard tests and the package test
//    (tests/runtimes/*_test.ts);
// 4. runs the checks in Deno (the source, no permissions), Node.js (the
//    installed package, no code generation from strings), Bun, workerd and
//    Vercel's edge runtime (each serving the checks on a loopback port,
//    stopped afterwards), and prints every runtime's closing line.

import { consumer, installPackage, path } from "./_npm_consumer.ts";
import { buildPackage, installRuntimes, RUNTIME_PACKAGES, runtimeBin, tools } from "./_install.ts";
import { must, type Ran, run, RUNTIME_DEADLINE_MS } from "./_process.ts";

const root = new URL("../../", import.meta.url);
const work = new URL("conformance/", tools);
const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));

async function bundle(entry: string, output: URL, flags: readonly string[]): Promise<void> {
  await must(Deno.execPath(), ["bundle", "--quiet", "--platform=browser", ...flags, `--output=${path(output)}`, entry]);
}

async function prepare(): Promise<void> {
  await installRuntimes();
  console.log(await buildPackage());
  console.log(`package: ${await installPackage() ? "installed" : "reused the install of"} dist/ in ${path(consumer)}`);
  // Node.js and Bun resolve the package and valibot from the scratch project's node_modules, as a user's script does.
  const installed = ["--format=esm", "--external=@salvor/tools", "--external=valibot"];
  await bundle("tests/runtimes/cli.ts", new URL("cli.js", consumer), installed);
  await bundle("tests/runtimes/fixtures/import_probe.ts", new URL("import_probe.js", consumer), installed);
  // workerd and the edge runtime run one file: the build's modules are inlined, each entrypoint by its package name.
  const { exports } = JSON.parse(await Deno.readTextFile(new URL("dist/package.json", root)));
  const entrypoints = Object.entries<{ default: string }>(exports).map(([name, { default: file }]) => [
    `${config.name}${name.slice(1)}`,
    new URL(file, new URL("dist/", root)).href,
  ]);
  const importMap = new URL("import_map.json", work);
  await Deno.mkdir(work, { recursive: true });
  await Deno.writeTextFile(
    importMap,
    JSON.stringify({ imports: { ...config.imports, ...Object.fromEntries(entrypoints) } }),
  );
  // Minified as an app ships it; that also drops the doc comments, whose examples would read as imports.
  const inlined = [`--import-map=${path(importMap)}`, "--minify"];
  await bundle("tests/runtimes/worker.ts", new URL("worker.js", work), ["--format=esm", ...inlined]);
  await bundle("tests/runtimes/edge.ts", new URL("edge.js", work), ["--format=iife", ...inlined]);
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
    how: "the installed package, with --disallow-code-generation-from-strings",
    version: () => firstLine("node", ["--version"]).then((version) => `Node.js ${version}`),
    run: () => run("node", ["--disallow-code-generation-from-strings", path(new URL("cli.js", consumer))]),
  },
  {
    name: "bun",
    how: "the installed package",
    version: () => firstLine(runtimeBin("bun"), ["--version"]).then((version) => `Bun ${version}`),
    run: () => run(runtimeBin("bun"), [path(new URL("cli.js", consumer))]),
  },
  {
    name: "workerd",
    how: "the build, inlined in a module worker, fetched on a loopback port",
    version: () => firstLine(runtimeBin("workerd"), ["--version"]),
    run: () => {
      const address = `127.0.0.1:${freePort()}`;
      return serve(
        runtimeBin("workerd"),
        ["serve", "tests/runtimes/workerd.capnp", `--socket-addr=http=${address}`],
        () => `http://${address}/`,
      );
    },
  },
  {
    name: "edge-runtime",
    how: "the build, inlined in a fetch-event script, fetched on a loopback port",
    version: () => Promise.resolve(`edge-runtime ${RUNTIME_PACKAGES["edge-runtime"]}`),
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
  console.log("[guard tests of the build, and the package test]");
  const guards = await new Deno.Command(Deno.execPath(), {
    args: [
      "test",
      "--lock=tests/deno.lock",
      "--no-prompt",
      "--allow-read",
      `--allow-write=${path(tools)}`,
      "--allow-run",
      // TypeScript, loaded for the version it pins, reads its settings from the environment.
      "--allow-env",
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
    console.log(`[${runtime.name}] ${version}: ${runtime.how}`);
    const { code, output } = await runtime.run();
    console.log(output.trimEnd());
    const line = CLOSING.exec(output);
    const passed = code === 0 && line !== null && line[1] === runtime.name && line[3] === "0" && line[2] !== "0";
    closing.push(`${version} ${passed ? "held" : "FAILED"}: ${line?.[0] ?? `no closing line (exit code ${code})`}`);
    ok &&= passed;
  }
  console.log("[runtimes]");
  for (const line of closing) console.log(line);
  return ok;
}

try {
  Deno.exit(await main() ? 0 : 1);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  Deno.exit(1);
}
