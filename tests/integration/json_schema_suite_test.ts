// The official JSON Schema Test Suite, Draft 2020-12 and draft-07 (required
// and optional tests), run through the raw-JSON-Schema tool path:
// `defineJsonTool` with the suite's remotes registered from memory (those
// that do not refer outside the suite), then `ToolSet.call`. It reports,
// per draft and per path (compiled or fallback), how many cases pass. Every
// case that path gets wrong is listed with its reason in
// json_schema_suite_known_failures.json, the list kept exact in both
// directions; and no case the suite calls invalid is ever accepted, but for
// the optional ones listed as such.

import assert from "node:assert/strict";
import { defineJsonTool, type JsonSchema, type TerminalEvent, ToolSet } from "../../mod.ts";
import { compileSchema, type SchemaEngine } from "../../dyn.ts";

const SUITE = Deno.env.get("SALVOR_JSON_SCHEMA_SUITE");
// The suite's tests load its remotes/ folder from this base URI.
const REMOTE_BASE = "http://localhost:1234/";
// Each case schema is registered as a remote of its own under this base; no such host exists.
const CASE_BASE = "https://salvor.test/json-schema-suite/";

const DRAFTS = [
  { draft: "2020-12", folder: "tests/draft2020-12", uri: "https://json-schema.org/draft/2020-12/schema" },
  { draft: "7", folder: "tests/draft7", uri: "http://json-schema.org/draft-07/schema#" },
] as const;

interface Group {
  readonly description: string;
  readonly schema: JsonSchema;
  readonly tests: readonly { readonly description: string; readonly data: unknown; readonly valid: boolean }[];
}

async function jsonFiles(root: string, under = ""): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(`${root}/${under}`)) {
    const path = under ? `${under}/${entry.name}` : entry.name;
    if (entry.isDirectory) found.push(...await jsonFiles(root, path));
    else if (entry.name.endsWith(".json")) found.push(path);
  }
  return found.sort();
}

async function readRemotes(suite: string): Promise<Record<string, JsonSchema>> {
  const remotes: Record<string, JsonSchema> = {};
  for (const path of await jsonFiles(`${suite}/remotes`)) {
    remotes[`${REMOTE_BASE}${path}`] = JSON.parse(await Deno.readTextFile(`${suite}/remotes/${path}`));
  }
  return remotes;
}

/**
 * The remotes compileSchema accepts together: those that refer outside
 * the suite's documents (the official meta-schemas, never fetched) are
 * refused, each error naming the remote, and left out.
 */
function acceptedRemotes(all: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const remotes = { ...all };
  while (true) {
    try {
      compileSchema(true, { remotes });
      return remotes;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const named = Object.keys(remotes).find((uri) => message.includes(`remote "${uri}"`));
      if (named === undefined) throw error;
      delete remotes[named];
    }
  }
}

/**
 * Tool inputs must be objects, so the data becomes `{ value: data }` and the
 * input schema a required `value` that refers to the case schema,
 * registered as a remote of its own: its `#...` references and anchors
 * resolve inside it, as at a document root. The wrapper declares the draft.
 */
function wrap(draftUri: string, caseUri: string): JsonSchema {
  return { $schema: draftUri, type: "object", properties: { value: { $ref: caseUri } }, required: ["value"] };
}

/** What our path says about one case: valid, invalid, or something else (a refusal, a crash). */
type Verdict = boolean | string;

function verdictOf(end: TerminalEvent): Verdict {
  if (end.type === "output") return true;
  if (end.type === "failed" && end.failure.kind === "invalid_input") return false;
  return `ended as ${end.type === "failed" ? `${end.failure.kind}: ${end.failure.message}` : end.type}`;
}

type Path = SchemaEngine | "refused";
type Tally = Record<"required" | "optional", Record<Path, { passed: number; failed: number }>>;

function emptyTally(): Tally {
  const part = () => ({
    compiled: { passed: 0, failed: 0 },
    fallback: { passed: 0, failed: 0 },
    refused: { passed: 0, failed: 0 },
  });
  return { required: part(), optional: part() };
}

if (!SUITE) {
  console.log(
    "SALVOR_JSON_SCHEMA_SUITE is not set, so the JSON Schema Test Suite is skipped: " +
      "set it to the suite's folder (the one holding tests/ and remotes/) to run it.",
  );
}

Deno.test({
  name:
    "defineJsonTool() and ToolSet.call() pass the JSON Schema Test Suite 2020-12 and draft-07, and accept no invalid case",
  ignore: !SUITE,
  async fn() {
    const suite = SUITE!;
    const accepted = acceptedRemotes(await readRemotes(suite));
    const known: Record<string, string> = JSON.parse(
      await Deno.readTextFile(new URL("./json_schema_suite_known_failures.json", import.meta.url)),
    );
    const failures = new Map<string, string>();
    let caseIndex = 0;

    for (const { draft, folder, uri } of DRAFTS) {
      const tally = emptyTally();
      for (const file of await jsonFiles(`${suite}/${folder}`)) {
        const groups: Group[] = JSON.parse(await Deno.readTextFile(`${suite}/${folder}/${file}`));
        const part = file.startsWith("optional/") ? "optional" : "required";
        // The optional assertions, formats and draft-07's content keywords, are asked for where the suite tests them.
        const formats = file.startsWith("optional/format/") || file === "optional/content.json" ? "assert" : "annotate";
        for (const group of groups) {
          const caseUri = `${CASE_BASE}${caseIndex++}.json`;
          const inputSchema = wrap(uri, caseUri);
          const remotes = { ...accepted, [caseUri]: group.schema };
          let tools: ToolSet | undefined;
          let path: Path = "refused";
          let refusal = "";
          try {
            tools = new ToolSet().register(defineJsonTool({
              name: "suite_case",
              description: `${file}: ${group.description}`,
              inputSchema,
              remotes,
              formats,
              effects: [],
              run: () => ({}),
            }));
            path = compileSchema(inputSchema, { remotes, formats }).engine;
          } catch (error) {
            refusal = `refused at definition: ${error instanceof Error ? error.message : String(error)}`;
          }
          for (const test of group.tests) {
            const key = `${draft}/${file}/${group.description}/${test.description}`;
            const verdict: Verdict = tools
              ? verdictOf(
                await tools.call({ id: "suite", name: "suite_case", arguments: JSON.stringify({ value: test.data }) }),
              )
              : refusal;
            if (verdict === test.valid) {
              tally[part][path].passed++;
            } else {
              tally[part][path].failed++;
              failures.set(
                key,
                verdict === true ? "wrong accept" : verdict === false ? "wrong reject" : verdict,
              );
            }
          }
        }
      }
      for (const part of ["required", "optional"] as const) {
        // A refused schema has no verdict, so every case of it counts as not answered as the suite says.
        const rows = (["compiled", "fallback"] as const).map((path) => {
          const { passed, failed } = tally[part][path];
          return `${path} ${passed} of ${passed + failed} as the suite says`;
        });
        const refused = tally[part].refused.failed;
        console.log(
          `JSON Schema Test Suite, draft ${draft}, ${part}: ${rows.join(", ")}, ${refused} refused at definition`,
        );
      }
    }

    // A wrong accept lets through a value the schema forbids: never in a required case, and in an
    // optional one only where listed with its reason.
    const wrongAccepts = [...failures].filter(([key, kind]) => kind === "wrong accept" && !key.includes("/optional/"));
    assert.deepEqual(wrongAccepts, [], "required cases the tool path accepts although the suite says invalid");
    const unlistedAccepts = [...failures].filter(([key, kind]) =>
      kind === "wrong accept" && !Object.hasOwn(known, key)
    );
    assert.deepEqual(unlistedAccepts, [], "cases wrongly accepted that the known-failures list does not name");
    const unlisted = [...failures].filter(([key]) => !Object.hasOwn(known, key));
    assert.deepEqual(
      unlisted,
      [],
      "cases the tool path gets wrong that json_schema_suite_known_failures.json does not name (entries to review)",
    );
    const nowPassing = Object.keys(known).filter((key) => !failures.has(key));
    assert.deepEqual(nowPassing, [], "listed cases that now pass: remove them from the list");
    // Each reason says which way the case fails, so a wrong accept can never hide behind a reject's reason.
    const mislabelled = [...failures].filter(([key, kind]) =>
      (kind === "wrong accept") !== known[key].startsWith("wrong accept")
    );
    assert.deepEqual(mislabelled, [], "listed reasons that do not say whether the case is wrongly accepted");
  },
});
