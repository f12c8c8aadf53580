// The testing kit's conformance check holds for MCP tools as for native ones.

import assert from "node:assert/strict";
import { checkToolConformance } from "../../src/testing/conformance.ts";
import { connectFixture, livingChildren } from "./_helpers.ts";

Deno.test("checkToolConformance() holds for MCP tools: valid, invalid, failing and cancelled calls", async () => {
  await using server = await connectFixture("default");
  const tool = (name: string) => server.tools.find((candidate) => candidate.toolName === name)!;
  const reports = await Promise.all([
    checkToolConformance(tool("echo"), [
      { name: "valid", arguments: { text: "hi" }, expect: { type: "output" } },
      { name: "wrong type", arguments: { text: 1 }, valid: false },
      { name: "extra property", arguments: '{"text":"a","more":true}', valid: false },
    ]),
    checkToolConformance(tool("fail"), [{ arguments: {}, expect: { type: "failed", kind: "handler" } }]),
    checkToolConformance(tool("wait"), [{ name: "cancelled", arguments: {}, cancel: true }]),
    checkToolConformance(tool("rich"), [{ arguments: {}, expect: { type: "output" } }]),
  ]);
  for (const report of reports) {
    assert.equal(report.ok, true, JSON.stringify(report.rules.filter((rule) => !rule.ok), null, 2));
  }
});

Deno.test("checkToolConformance() reports an MCP tool whose server breaks its output schema", async () => {
  await using server = await connectFixture("default");
  const weather = server.tools.find((candidate) => candidate.toolName === "weather")!;
  const report = await checkToolConformance(weather, [{ arguments: { broken: true } }]);
  assert.equal(report.ok, false);
  assert.deepEqual(report.rules.filter((rule) => !rule.ok).map((rule) => rule.name), ["output_matches_schema"]);
});

Deno.test("no child process of this test file survives it", async () => {
  assert.deepEqual(await livingChildren(), []);
});
