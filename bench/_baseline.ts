// The core as it was before the call observer, read out of git, so that
// what the observer's hooks cost a set that has no observer is measured
// side by side with the same dispatch without them, in one process.

/** main's last commit before the observer: the same dispatch, without its hooks. */
export const BEFORE_OBSERVER = "f41ece6329a3cd458d1eed20da3ed2282052216e";

const ROOT = new URL("../", import.meta.url);

/** The core's entrypoint at a commit, and a way to remove it once measured. */
export interface Baseline extends AsyncDisposable {
  readonly core: typeof import("../mod.ts");
}

/**
 * Writes `mod.ts` and `src/core/` at `commit` into `bench/.baseline/` and
 * imports it: inside the project, so the import map resolves its packages.
 *
 * @param commit The commit.
 * @returns The imported core, or `undefined` when git or the commit is not
 * there (a shallow clone).
 */
export async function baselineCore(commit: string): Promise<Baseline | undefined> {
  const dir = new URL(`bench/.baseline/${commit}/`, ROOT);
  await Deno.mkdir(dir, { recursive: true });
  const remove = () => Deno.remove(new URL("bench/.baseline/", ROOT), { recursive: true });
  const archive = await new Deno.Command("sh", {
    args: ["-c", `git archive --format=tar "$1" mod.ts src/core | tar -x -C "$2"`, "sh", commit, dir.pathname],
    cwd: ROOT,
    stdout: "null",
    stderr: "piped",
  }).output().catch(() => undefined);
  if (!archive?.success) {
    await remove();
    return undefined;
  }
  const core = await import(new URL("mod.ts", dir).href);
  return { core, [Symbol.asyncDispose]: remove };
}
