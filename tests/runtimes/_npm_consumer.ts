/**
 * The npm package as a Node.js user installs it: dist/ packed by `npm pack`
 * and installed with `npm install` into a scratch project,
 * `.tools/npm-consumer/`, beside the packages a user adds next to it:
 * TypeScript (the version `tasks/_typescript.ts` pins), valibot and the MCP
 * SDK peers, client and server, and the OpenTelemetry API (the versions
 * deno.json's import map pins), and the frameworks the bridges serve with
 * the OpenTelemetry SDK (the versions the tests pin). The project is kept:
 * while the packed tarball is unchanged, the install is reused, and a new
 * tarball replaces only the package itself. Needs Node.js and npm alone.
 *
 * @module
 */

import { npmVersion } from "../../tasks/_npm_version.ts";
import { ts } from "../../tasks/_typescript.ts";
import { createHash } from "node:crypto";

const root = new URL("../../", import.meta.url);
const dist = new URL("dist/", root);

/** The scratch project the package is installed into. */
export const consumer: URL = new URL(".tools/npm-consumer/", root);

/** How long packing and installing may take: a fresh machine downloads about 20 MB. */
const INSTALL_DEADLINE_MS = 300_000;

/**
 * The version the tests pin a test-only package at, in tests/dev_deps.ts or
 * tests/framework_deps.ts: `npm:ai@7.0.173` → `7.0.173`.
 */
function testPin(name: string): string {
  for (const file of ["tests/dev_deps.ts", "tests/framework_deps.ts"]) {
    const text = Deno.readTextFileSync(new URL(file, root));
    const version = text.match(new RegExp(`"npm:${name.replace(/[/.]/g, "\\$&")}@([^/"]+)`))?.[1];
    if (version !== undefined) return version;
  }
  throw new Error(`Cannot pin "${name}" for the npm consumer as no test pins it: current pins are in tests/*_deps.ts`);
}

/** The path of a file URL. */
export function path(url: URL): string {
  return decodeURIComponent(url.pathname);
}

/** Runs npm to its end, or stops it at the deadline; fails with its output unless it succeeds. */
async function npm(args: readonly string[], cwd: URL): Promise<string> {
  const child = new Deno.Command("npm", { args: [...args], cwd, stdout: "piped", stderr: "piped" }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), INSTALL_DEADLINE_MS);
  try {
    const [stdout, stderr, status] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.status,
    ]);
    if (!status.success) {
      throw new Error(`Cannot install the npm package as "npm ${args.join(" ")}" failed: current output is ${stderr}`);
    }
    return stdout;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Packs dist/ and installs the tarball into {@linkcode consumer}, unless
 * the same tarball is installed there already.
 *
 * @returns Whether npm installed anything.
 * @throws {Error} When dist/ is unbuilt or npm fails.
 */
export async function installPackage(): Promise<boolean> {
  await Deno.stat(new URL("package.json", dist)).catch(() => {
    throw new Error(`Cannot pack the npm package as ${path(dist)} is unbuilt: run "deno task build" first`);
  });
  await Deno.mkdir(consumer, { recursive: true });
  const [{ filename }] = JSON.parse(
    await npm(["pack", "--json", "--pack-destination", path(consumer), path(dist)], root),
  );
  const bytes = await Deno.readFile(new URL(filename, consumer));
  // Named by its content, so npm sees a new package whenever the tarball changes.
  const tarball = `salvor-tools-${createHash("sha256").update(bytes).digest("hex").slice(0, 16)}.tgz`;
  await Deno.rename(new URL(filename, consumer), new URL(tarball, consumer));
  const manifest = `${
    JSON.stringify(
      {
        private: true,
        type: "module",
        description: "A Node.js project that installs the npm package as a user does; written by the package test.",
        dependencies: {
          "@salvor/tools": `file:${tarball}`,
          "@modelcontextprotocol/client": npmVersion("@modelcontextprotocol/client"),
          "@modelcontextprotocol/server": npmVersion("@modelcontextprotocol/server"),
          "typescript": ts.version,
          // The SDK's v2 client names Node's Buffer in its declarations: a project checking them needs Node's types.
          "@types/node": "20.19.43",
          "valibot": npmVersion("valibot"),
          // The peers of the bridges and of ./otel, at the versions the bridge tests pin, for a bridge step in Node.js.
          "@opentelemetry/api": npmVersion("@opentelemetry/api"),
          "@opentelemetry/sdk-trace-base": testPin("@opentelemetry/sdk-trace-base"),
          "ai": testPin("ai"),
          "@openai/agents-core": testPin("@openai/agents-core"),
          "@langchain/core": testPin("@langchain/core"),
          "@langchain/langgraph": testPin("@langchain/langgraph"),
          "langchain": testPin("langchain"),
          "@mastra/core": testPin("@mastra/core"),
          "zod": testPin("zod"),
        },
      },
      null,
      2,
    )
  }\n`;
  const current = await Deno.readTextFile(new URL("package.json", consumer)).catch(() => undefined);
  const installed = await Deno.stat(new URL("node_modules/@salvor/tools/package.json", consumer)).then(
    () => true,
    () => false,
  );
  for await (const entry of Deno.readDir(consumer)) {
    if (/^salvor-tools-.*\.tgz$/.test(entry.name) && entry.name !== tarball) {
      await Deno.remove(new URL(entry.name, consumer));
    }
  }
  if (current === manifest && installed) return false;
  await Deno.writeTextFile(new URL("package.json", consumer), manifest);
  await npm(["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], consumer);
  return true;
}
