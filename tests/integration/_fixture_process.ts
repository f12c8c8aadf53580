// Runs a fixture script of this folder in a fresh Deno process, as a host's
// next process would run: its mode as the argument, an input on stdin, what
// it printed on stdout.

import assert from "node:assert/strict";

const config = new URL("../../deno.json", import.meta.url).pathname;

/** Runs `fixtures/<name>` with `mode`, writing `input` to its stdin, and returns its stdout, trimmed. */
export async function runFixture(name: string, mode: string, input?: string): Promise<string> {
  const script = new URL(`./fixtures/${name}`, import.meta.url).pathname;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "--config", config, script, mode],
    stdin: input === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (input !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(input));
    await writer.close();
  }
  const { code, stdout, stderr } = await child.output();
  const decoder = new TextDecoder();
  assert.equal(code, 0, decoder.decode(stderr));
  return decoder.decode(stdout).trim();
}
