// The official JSON Schema Test Suite, Draft 2020-12 (required and optional
// tests), run through the raw-JSON-Schema tool path: `defineJsonTool` with
// the suite's remotes registered from memory (those that do not refer
// outside the suite), then `ToolSet.call`. Every case that path gets wrong
// must be one bare cfworker gets wrong too, and must be listed in
// json_schema_suite_known_failures.json; the list is kept exact in both
// directions.

import assert from "node:assert/strict";
import { type Schema, Validator } from "@cfworker/json-schema";
import { defineJsonTool, type JsonSchema, type TerminalEvent, ToolSet } from "../../mod.ts";
import { compileSchema } from "../../dyn.ts";

const SUITE = Deno.env.get("SALVOR_JSON_SCHEMA_SUITE");
const DRAFT_DIR = "tests/draft2020-12";
// The suite's tests load its remotes/ folder from this base URI.
const REMOTE_BASE = "http://localhost:1234/";
// Gives a case schema without $id a base of its own; no such host exists.
const CASE_BASE = "https://salvor.test/json-schema-suite/";

/** One test of the suite, named as in the known-failures list. */
interface CaseId {
  /** The test file, relative to tests/draft2020-12/. */
  readonly file: string;
  /** The group's description. */
  readonly group: string;
  /** The test's description. */
  readonly test: string;
}

interface Group {
  readonly description: string;
  readonly schema: JsonSchema;
  readonly tests: readonly { readonly description: string; readonly data: unknown; readonly valid: boolean }[];
}

const keyOf = (id: CaseId) => JSON.stringify([id.file, id.group, id.test]);

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
 * Tool inputs must be objects, so the case schema becomes the `value`
 * property of a required-`value` object schema, and the data becomes
 * `{ value: data }`. A boolean schema keeps its meaning there as it is. An
 * object schema without `$id` gets one, so it stays its own schema
 * resource: its `#...` references and anchors resolve inside it, as at a
 * document root, and never against the wrapper. The wrapper declares no
 * `$dynamicAnchor`, so dynamic scope resolution still starts in the case
 * schema.
 */
function wrap(schema: JsonSchema, id: string): JsonSchema {
  const value = typeof schema === "object" && schema.$id === undefined ? { ...schema, $id: id } : schema;
  return { type: "object", properties: { value }, required: ["value"] };
}

/** What our path says about one case: valid, invalid, or something else (a refusal, a crash). */
type Verdict = boolean | string;

function verdictOf(end: TerminalEvent): Verdict {
  if (end.type === "output") return true;
  if (end.type === "failed" && end.failure.kind === "invalid_input") return false;
  return `ended as ${end.type === "failed" ? end.failure.kind : end.type}`;
}

/** Whether bare cfworker, given the same remotes, gets a case right. */
function cfworkerPasses(
  schema: JsonSchema,
  data: unknown,
  valid: boolean,
  remotes: Record<string, JsonSchema>,
): boolean {
  try {
    const validator = new Validator(structuredClone(schema) as Schema, "2020-12", false);
    for (const [uri, remote] of Object.entries(remotes)) validator.addSchema(structuredClone(remote) as Schema, uri);
    return validator.validate(data).valid === valid;
  } catch {
    return false;
  }
}

if (!SUITE) {
  console.log(
    "SALVOR_JSON_SCHEMA_SUITE is not set, so the JSON Schema Test Suite is skipped: " +
      "set it to the suite's folder (the one holding tests/ and remotes/) to run it.",
  );
}

Deno.test({
  name: "defineJsonTool() and ToolSet.call() pass the JSON Schema Test Suite 2020-12 wherever cfworker does",
  ignore: !SUITE,
  async fn() {
    const suite = SUITE!;
    const remotes = await readRemotes(suite);
    const accepted = acceptedRemotes(remotes);
    const known: CaseId[] = JSON.parse(
      await Deno.readTextFile(new URL("./json_schema_suite_known_failures.json", import.meta.url)),
    );
    const knownKeys = new Set(known.map(keyOf));
    assert.equal(knownKeys.size, known.length, "the known-failures list has a repeated entry");

    const seen = new Set<string>();
    const tally = { required: { passed: 0, failed: 0 }, optional: { passed: 0, failed: 0 } };
    const unlisted: (CaseId & { readonly cfworker: string; readonly ours: string })[] = [];
    const nowPassing: CaseId[] = [];
    const notCfworkers: CaseId[] = [];
    let groupIndex = 0;

    for (const file of await jsonFiles(`${suite}/${DRAFT_DIR}`)) {
      const groups: Group[] = JSON.parse(await Deno.readTextFile(`${suite}/${DRAFT_DIR}/${file}`));
      const part = file.startsWith("optional/") ? tally.optional : tally.required;
      for (const group of groups) {
        let tools: ToolSet | undefined;
        let refusal = "";
        try {
          tools = new ToolSet().register(defineJsonTool({
            name: "suite_case",
            description: `${file}: ${group.description}`,
            inputSchema: wrap(group.schema, `${CASE_BASE}${groupIndex++}.json`),
            remotes: accepted,
            effects: [],
            run: () => ({}),
          }));
        } catch (error) {
          refusal = `refused at definition: ${error instanceof Error ? error.message : String(error)}`;
        }
        for (const test of group.tests) {
          const id: CaseId = { file, group: group.description, test: test.description };
          const key = keyOf(id);
          seen.add(key);
          const verdict: Verdict = tools
            ? verdictOf(
              await tools.call({ id: key, name: "suite_case", arguments: JSON.stringify({ value: test.data }) }),
            )
            : refusal;
          const right = verdict === test.valid;
          if (right) part.passed++;
          else part.failed++;
          const listed = knownKeys.has(key);
          if (right && listed) nowPassing.push(id);
          if (!right || listed) {
            const cfworker = cfworkerPasses(group.schema, test.data, test.valid, remotes);
            if (listed && cfworker) notCfworkers.push(id);
            if (!right && !listed) {
              unlisted.push({
                ...id,
                cfworker: cfworker ? "passes" : "fails too",
                ours: typeof verdict === "string" ? verdict : `said ${verdict ? "valid" : "invalid"}`,
              });
            }
          }
        }
      }
    }

    const { required, optional } = tally;
    console.log(
      `JSON Schema Test Suite 2020-12: ${required.passed} passed, ${required.failed} known cfworker failures ` +
        `(optional: ${optional.passed} passed, ${optional.failed} known cfworker failures)`,
    );
    const stale = known.filter((id) => !seen.has(keyOf(id)));
    assert.deepEqual(stale, [], "listed cases that are not in the suite");
    assert.deepEqual(
      unlisted,
      [],
      "cases our path gets wrong that the known-failures list does not name (entries to review):\n" +
        unlisted.map(({ file, group, test }) => JSON.stringify({ file, group, test })).join(",\n"),
    );
    assert.deepEqual(nowPassing, [], "listed cases that now pass: remove them from the list");
    assert.deepEqual(notCfworkers, [], "listed cases that bare cfworker passes: our path broke them");
    assert.ok(required.passed > 1200, `only ${required.passed} required cases passed`);
  },
});
