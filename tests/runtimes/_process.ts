// Running a command to its end, with a deadline: for the cross-runtime run
// and the benchmarks that run the same runtimes.

/** How long one command may take, by default, before it is stopped and counted as failed. */
export const RUNTIME_DEADLINE_MS = 120_000;

const root = new URL("../../", import.meta.url);

/** How a command ended: its exit code and its output (stdout then stderr). */
export interface Ran {
  readonly code: number;
  readonly output: string;
}

/** Runs a command to its end, or stops it at the deadline; its stdout is also given alone. */
export async function run(
  command: string,
  args: readonly string[],
  { cwd = root, deadlineMs = RUNTIME_DEADLINE_MS }: { cwd?: URL; deadlineMs?: number } = {},
): Promise<Ran & { readonly stdout: string }> {
  const child = new Deno.Command(command, { args: [...args], cwd, stdout: "piped", stderr: "piped" }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), deadlineMs);
  try {
    const [stdout, stderr, status] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.status,
    ]);
    return { code: status.code, output: stdout + stderr, stdout };
  } finally {
    clearTimeout(timer);
  }
}

/** Runs a command like {@linkcode run} and returns its output; fails with that output unless it succeeds. */
export async function must(
  command: string,
  args: readonly string[],
  options?: { cwd?: URL; deadlineMs?: number },
): Promise<string> {
  const { code, output } = await run(command, args, options);
  if (code !== 0) throw new Error(`Cannot prepare the runtimes as "${command} ${args.join(" ")}" failed:\n${output}`);
  return output;
}
