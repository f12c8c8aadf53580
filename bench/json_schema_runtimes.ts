// Case 2 on Node.js and Bun: the raw JSON Schema dispatch rows of Deno's
// case 2, measured the same way (bench/_json_schema_case.ts and the same
// harness: a long warm-up, rounds in rotating order, medians of paired
// ratios) in each runtime, with ours being the npm build as a user installs
// it. The runtimes, the build and its install come from the cross-runtime
// check's installer (tests/runtimes/); the case is bundled with the package
// left external and run in each runtime, which prints its rows.

import { buildPackage, installRuntimes, runtimeBin } from "../tests/runtimes/_install.ts";
import { consumer, installPackage, path } from "../tests/runtimes/_npm_consumer.ts";
import { must, run } from "../tests/runtimes/_process.ts";
import { check, type Mode, type Row } from "./_harness.ts";
import { ticketSchemas } from "./json_schema_dispatch.ts";

const RUNTIMES: readonly (readonly [name: string, command: () => string])[] = [
  ["Node.js", () => "node"],
  ["Bun", () => runtimeBin("bun")],
];

/**
 * Runs case 2's dispatch rows in Node.js and in Bun.
 *
 * @param mode Full or smoke.
 * @returns Each runtime's rows for the valid and the invalid input.
 * @throws {Error} When preparing a runtime fails, or a runtime's run fails or its contenders misbehave.
 */
export async function jsonSchemaRuntimes(mode: Mode): Promise<Row[]> {
  // Progress goes to stderr, as the other cases' does: stdout is the table's.
  await installRuntimes(console.error);
  await buildPackage();
  await installPackage();
  // The case runs in the scratch project the package is installed in, resolving it as a user's script does.
  const probe = new URL("json_schema_probe.js", consumer);
  await must(Deno.execPath(), [
    "bundle",
    "--quiet",
    "--lock=bench/deno.lock",
    "--platform=browser",
    "--format=esm",
    "--external=@salvor/tools",
    `--output=${path(probe)}`,
    "bench/_json_schema_probe.ts",
  ]);
  const schemas = JSON.stringify(ticketSchemas());
  const rows: Row[] = [];
  for (const [name, command] of RUNTIMES) {
    const version = (await must(command(), ["--version"])).trim().replace(/^v/, "");
    const runtime = `${name} ${version}`;
    const ran = await run(command(), [path(probe), schemas, mode.smoke ? "smoke" : "full", runtime]);
    check(ran.code === 0, `the run on ${runtime} ended with exit code ${ran.code}:\n${ran.output}`);
    rows.push(...JSON.parse(ran.stdout.trim().split("\n").at(-1)!) as Row[]);
  }
  return rows;
}
