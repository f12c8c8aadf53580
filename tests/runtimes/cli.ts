/**
 * The command-line harness for Deno, Node.js and Bun: runs the conformance
 * checks, prints one line a check and the closing line, and exits non-zero
 * on any failure.
 *
 * @module
 */

import { runConformance } from "./conformance.ts";

interface Host {
  readonly Deno?: { exit(code: number): never };
  readonly Bun?: unknown;
  readonly process?: { exitCode?: number };
}

// The task that runs this prints each runtime's version above its lines.
const host = globalThis as Host;
const runtime = host.Deno ? "deno" : host.Bun ? "bun" : "node";
const report = await runConformance(runtime);
for (const line of report.lines) console.log(line);
const code = report.failed === 0 ? 0 : 1;
if (host.Deno) host.Deno.exit(code);
else if (host.process) host.process.exitCode = code;
