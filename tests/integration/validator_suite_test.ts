// The official JSON Schema Test Suite, draft 2020-12 and draft-07: every case
// is either routed to the fallback (refused as unsupported) or decided as
// the suite says, except the known failures listed with their reasons.

import assert from "node:assert/strict";
import { compileValidator } from "../core/validator/_compile_validator.ts";
import type { CompiledValidator } from "../../src/core/schema/validator/_build.ts";
import { SchemaRefusal } from "../../src/core/schema/validator/refusal.ts";
import { FORMATS } from "../../src/core/schema/validator/_formats.ts";

const SUITE = Deno.env.get("SALVOR_JSON_SCHEMA_SUITE");
const KNOWN_FAILURES: Record<string, string> = JSON.parse(
  await Deno.readTextFile(new URL("./validator_suite_known_failures.json", import.meta.url)),
);

interface SuiteGroup {
  description: string;
  schema: unknown;
  tests: { description: string; data: unknown; valid: boolean }[];
}

async function readRemotes(root: string): Promise<Record<string, unknown>> {
  const remotes: Record<string, unknown> = {};
  const walk = async (folder: string, prefix: string) => {
    for await (const entry of Deno.readDir(`${root}/${folder}`)) {
      const path = folder === "" ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory) await walk(path, prefix);
      else if (entry.name.endsWith(".json")) {
        remotes[`${prefix}${path}`] = JSON.parse(await Deno.readTextFile(`${root}/${path}`));
      }
    }
  };
  await walk("", "http://localhost:1234/");
  return remotes;
}

async function suiteFiles(folder: string): Promise<string[]> {
  const files: string[] = [];
  for (const sub of ["", "optional/", "optional/format/"]) {
    try {
      for await (const entry of Deno.readDir(`${folder}/${sub}`)) {
        if (entry.isFile && entry.name.endsWith(".json")) files.push(`${sub}${entry.name}`);
      }
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return files.sort();
}

interface Counts {
  passed: number;
  fallback: number;
  known: number;
}

async function runDraft(draft: "2020-12" | "7", failures: Map<string, string>): Promise<Counts> {
  const folder = `${SUITE}/tests/${draft === "7" ? "draft7" : "draft2020-12"}`;
  const remotes = await readRemotes(`${SUITE}/remotes`);
  const counts: Counts = { passed: 0, fallback: 0, known: 0 };
  for (const file of await suiteFiles(folder)) {
    const groups: SuiteGroup[] = JSON.parse(await Deno.readTextFile(`${folder}/${file}`));
    // The optional assertions, formats and draft-07's content keywords, are asked for where the suite tests them.
    const formats = file.startsWith("optional/format/") || file === "optional/content.json" ? "assert" : "annotate";
    for (const group of groups) {
      const prefix = `${draft}/${file}/${group.description}`;
      let validator: CompiledValidator | undefined;
      let refusal: string | undefined;
      try {
        validator = compileValidator(group.schema, { draft, remotes, formats, scanners: FORMATS });
      } catch (error) {
        if (!(error instanceof SchemaRefusal)) throw error;
        if (error.kind === "unsupported") {
          counts.fallback += group.tests.length;
          continue;
        }
        refusal = error.message;
      }
      for (const test of group.tests) {
        const key = `${prefix}/${test.description}`;
        let verdict: boolean | string;
        try {
          verdict = validator === undefined ? `refused: ${refusal}` : validator.isValid(test.data);
        } catch (error) {
          verdict = `threw: ${error}`;
        }
        if (verdict === test.valid) {
          counts.passed++;
        } else {
          failures.set(key, verdict === true ? "wrong accept" : verdict === false ? "wrong reject" : verdict);
          if (Object.hasOwn(KNOWN_FAILURES, key)) counts.known++;
        }
      }
    }
  }
  return counts;
}

Deno.test({
  name: "the JSON Schema Test Suite passes or falls back, but for the known failures",
  ignore: SUITE === undefined,
  async fn() {
    const failures = new Map<string, string>();
    for (const draft of ["2020-12", "7"] as const) {
      const counts = await runDraft(draft, failures);
      console.log(
        `draft ${draft}: ${counts.passed} passed compiled, ${counts.fallback} fallback, ${counts.known} known failures`,
      );
    }
    const unexpected = [...failures].filter(([key]) => !Object.hasOwn(KNOWN_FAILURES, key));
    const fixed = Object.keys(KNOWN_FAILURES).filter((key) => !failures.has(key));
    assert.deepEqual(unexpected, [], "failures not in validator_suite_known_failures.json");
    assert.deepEqual(fixed, [], "known failures that now pass: remove them from validator_suite_known_failures.json");
    // A wrong accept is only tolerated in optional tests, each with its reason.
    const wrongRequired = [...failures].filter(([key, kind]) => kind === "wrong accept" && !key.includes("/optional/"));
    assert.deepEqual(wrongRequired, []);
  },
});

if (SUITE === undefined) {
  console.log("SALVOR_JSON_SCHEMA_SUITE is not set: the JSON Schema Test Suite is skipped");
}
