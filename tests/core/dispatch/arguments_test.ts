// Reading a model's arguments: when their JSON text vouches for their size,
// strings and containers, only depth and numbers are checked; the verdict
// must not change.

import assert from "node:assert/strict";
import { fc } from "../../dev_deps.ts";
import { defineJsonTool, type JsonLimits, ToolSet } from "../../../mod.ts";
import { checkJsonValue } from "../../../dyn.ts";

const echo = defineJsonTool({
  name: "echo",
  description: "Echoes.",
  inputSchema: { type: "object" },
  effects: [],
  run: (input) => input,
});

async function refusal(text: string, limits?: JsonLimits): Promise<string | undefined> {
  const end = await new ToolSet(limits ? { limits } : {}).register(echo).call({
    id: "1",
    name: "echo",
    arguments: text,
  });
  if (end.type === "output") return undefined;
  assert.equal(end.type === "failed" && end.failure.kind, "invalid_input");
  return end.type === "failed" ? end.failure.diagnostics?.[0].keyword : "not failed";
}

Deno.test("ToolSet.call() refuses a lone surrogate escaped in the arguments text", async () => {
  assert.equal(await refusal('{"a":"\\ud800"}'), "wellFormed");
  assert.equal(await refusal('{"\\udc00":1}'), "wellFormed");
  assert.equal(await refusal('{"ok":"\\ud83d\\ude00"}'), undefined);
});

Deno.test("ToolSet.call() refuses a number the arguments text overflows to Infinity", async () => {
  assert.equal(await refusal('{"a":[1,2,1e999]}'), "json");
  assert.equal(await refusal(`{"a":${"9".repeat(400)}}`), "json");
});

Deno.test("ToolSet.call() refuses a short arguments text nested deeper than maxDepth", async () => {
  const limits = { maxBytes: 1024, maxDepth: 3 };
  assert.equal(await refusal('{"a":{"b":{"c":1}}}', limits), undefined);
  assert.equal(await refusal('{"a":{"b":{"c":[1]}}}', limits), "maxDepth");
});

Deno.test("ToolSet.call() holds an arguments text to maxContainers, as it holds a value", async () => {
  const limits = { maxBytes: 256 * 1024, maxDepth: 32, maxContainers: 100 };
  const text = JSON.stringify({ a: Array.from({ length: 1000 }, () => []) });
  assert.equal(await refusal(text, limits), "maxContainers");
  // The object, its array and 98 arrays in it: 100.
  assert.equal(await refusal(JSON.stringify({ a: Array.from({ length: 98 }, () => []) }), limits), undefined);
});

Deno.test("ToolSet.call() accepts and refuses an arguments text exactly as checkJsonValue judges what it parses to", async () => {
  const texts = fc.tuple(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 5 })), fc.boolean())
    .map(([value, spaced]) => JSON.stringify(value, null, spaced ? 1 : undefined));
  await fc.assert(
    fc.asyncProperty(
      texts,
      fc.integer({ min: 1, max: 7 }),
      fc.integer({ min: 0, max: 8 }),
      fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }),
      async (text, depth, scale, maxContainers) => {
        // From the text's own length (a longer text is refused before it is parsed) to six times it,
        // where the text vouches for its size.
        const limits = {
          maxBytes: text.length + Math.floor((text.length * 5 * scale) / 8),
          maxDepth: depth,
          ...(maxContainers === undefined ? {} : { maxContainers }),
        };
        const expected = checkJsonValue(JSON.parse(text), limits)?.keyword;
        assert.equal(await refusal(text, limits), expected);
      },
    ),
    { numRuns: 400 },
  );
});
