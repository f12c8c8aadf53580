/**
 * The command-line harness for Deno, Node.js and Bun: runs the conformance
 * checks, prints one line a check and the closing line, and exits non-zero
 * on any failure.
 *
 * @module
 */

import { runConformance } from "./conformance.ts";

interface Host {
  readonly Deno?: { readonly version: { readonly deno: string }; exit(code: number): never };
  readonly Bun?: { readonly version: string };
  readonly process?: { readonly versions: { readonly node: string }; exitCode?: number };
}

const host = globalThis as Host;
const [runtime, version] = host.Deno
  ? ["deno", host.Deno.version.deno]
  : host.Bun
  ? ["bun", host.Bun.version]
  : ["node", host.process?.versions.node];
console.log(`# ${runtime} ${version}`);
const report = await runConformance(runtime);
for (const line of report.lines) console.log(line);
const code = report.failed === 0 ? 0 : 1;
if (host.Deno) host.Deno.exit(code);
else if (host.process) host.process.exitCode = code;
