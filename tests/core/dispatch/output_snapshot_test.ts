import assert from "node:assert/strict";
import * as v from "valibot";
import { defineJsonTool, defineTool, suspend, ToolSet } from "../../../mod.ts";

const OUTPUT_SCHEMA = { type: "object", properties: { n: { type: "number", maximum: 10 } }, required: ["n"] } as const;

/** An output whose `n` reads 1 the first time and 1000 after: only the first read may count. */
function shifting(): { n: number } {
  let reads = 0;
  return Object.defineProperty({}, "n", { enumerable: true, get: () => reads++ === 0 ? 1 : 1000 }) as { n: number };
}

Deno.test("ToolSet.call() hands on exactly the output it validated, when the output's getter answers differently each read", async () => {
  const json = defineJsonTool({
    name: "json",
    description: "Shifts.",
    inputSchema: { type: "object" },
    outputSchema: OUTPUT_SCHEMA,
    effects: [],
    run: shifting,
  });
  const typed = defineTool({
    name: "typed",
    description: "Shifts.",
    inputSchema: v.object({}),
    outputSchema: v.looseObject({ n: v.pipe(v.number(), v.maxValue(10)) }),
    effects: [],
    run: shifting,
  });
  const tools = new ToolSet().register(json, typed);
  for (const name of ["json", "typed"]) {
    const end = await tools.call({ id: "1", name });
    assert.equal(end.type, "output");
    if (end.type === "output") {
      assert.deepEqual(end.result.output, { n: 1 });
      assert.deepEqual(end.result.content, [{ type: "text", text: '{"n":1}' }]);
    }
  }
});

Deno.test("ToolSet.call() keeps the validated output when the handler changes it after returning", async () => {
  const kept = { n: 1, nested: { list: [1] } };
  const tool = defineJsonTool({
    name: "keeper",
    description: "Keeps a reference.",
    inputSchema: { type: "object" },
    outputSchema: { type: "object", properties: { n: { type: "number", maximum: 10 } } },
    effects: [],
    run: async () => {
      setTimeout(() => {
        kept.n = 1000;
        kept.nested.list.push(2);
      }, 0);
      await Promise.resolve();
      return kept;
    },
  });
  const end = await new ToolSet().register(tool).call({ id: "1", name: "keeper" });
  await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(end.type, "output");
  if (end.type === "output") assert.deepEqual(end.result.output, { n: 1, nested: { list: [1] } });
});

Deno.test("ToolSet.resume() hands the handler exactly the answer it validated, when the answer's getter answers differently each read", async () => {
  let seen: unknown;
  const tool = defineJsonTool({
    name: "ask",
    description: "Asks.",
    inputSchema: { type: "object" },
    effects: [],
    run: (_input, ctx) => {
      if (ctx.resume === undefined) return suspend({ reason: "Pick n", resumeSchema: OUTPUT_SCHEMA });
      seen = ctx.resume;
      return {};
    },
  });
  const tools = new ToolSet().register(tool);
  const parked = await tools.call({ id: "1", name: "ask" });
  assert.equal(parked.type, "suspended");
  if (parked.type !== "suspended") return;
  const end = await tools.resume(parked.suspended, shifting());
  assert.equal(end.type, "output");
  assert.deepEqual(seen, { n: 1 });
});
