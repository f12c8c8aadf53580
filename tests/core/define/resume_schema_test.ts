import assert from "node:assert/strict";
import * as v from "valibot";
import { defineTool, suspend, ToolSet } from "../../../mod.ts";

const PIN = v.object({ pin: v.pipe(v.string(), v.trim(), v.check((pin) => pin === "1234", "Wrong PIN.")) });

function pinTool(seen: string[]) {
  return defineTool({
    name: "unlock",
    description: "Unlocks with a PIN.",
    inputSchema: v.object({ door: v.string() }),
    resumeSchema: PIN,
    effects: ["external.mutation"],
    run: (input, ctx) => {
      if (ctx.resume === undefined) return suspend({ reason: `PIN for ${input.door}?` });
      // ctx.resume is typed by the tool's resumeSchema.
      const pin: string = ctx.resume.pin;
      seen.push(pin);
      return { unlocked: input.door };
    },
  });
}

async function parked(tools: ToolSet) {
  const end = await tools.call({ id: "1", name: "unlock", arguments: { door: "front" } });
  assert.equal(end.type, "suspended");
  return end.type === "suspended" ? JSON.parse(JSON.stringify(end.suspended)) : undefined as never;
}

Deno.test("ToolSet.resume() refuses an answer the tool's Valibot resume schema checks refuse, as invalid_input, the handler not run", async () => {
  const seen: string[] = [];
  const tools = new ToolSet().register(pinTool(seen));
  const record = await parked(tools);
  const end = await tools.resume(record, { pin: "0000" });
  assert.equal(end.type === "failed" && end.failure.kind, "invalid_input");
  if (end.type === "failed") assert.match(end.failure.modelText, /Wrong PIN/);
  assert.deepEqual(seen, []);
});

Deno.test("ToolSet.resume() hands the handler the answer as the tool's resume schema transformed it", async () => {
  const seen: string[] = [];
  const tools = new ToolSet().register(pinTool(seen));
  const end = await tools.resume(await parked(tools), { pin: "  1234 " });
  assert.equal(end.type, "output");
  assert.deepEqual(seen, ["1234"]);
});

Deno.test("A suspension whose Valibot resume schema holds checks JSON Schema cannot carry, not declared on the tool, is a contract failure", async () => {
  const tool = defineTool({
    name: "unlock",
    description: "Unlocks.",
    inputSchema: v.object({}),
    effects: ["external.mutation"],
    run: () => suspend({ reason: "PIN?", resumeSchema: PIN }),
  });
  const end = await new ToolSet().register(tool).call({ id: "1", name: "unlock" });
  assert.equal(end.type === "failed" && end.failure.kind, "contract");
  if (end.type === "failed") assert.match(end.failure.message, /resumeSchema/);
});

Deno.test("A suspension whose Valibot resume schema checks past a second schema, or behind a lazy one, is a contract failure", async () => {
  // Each JSON Schema the record would keep misses a check: a resume would take { pin: "1" }, { pin: 12 }, { n: "5" }.
  const unshown = {
    "a nested pipe": v.object({ pin: v.pipe(v.string(), v.pipe(v.string(), v.length(4))) }),
    "a pipe of two schemas": v.object({ pin: v.pipe(v.unknown(), v.string(), v.minLength(4)) }),
    "a lazy schema": v.object({ n: v.lazy(() => v.pipe(v.string(), v.transform(Number), v.number(), v.minValue(10))) }),
  };
  for (const [label, resumeSchema] of Object.entries(unshown)) {
    const tool = defineTool({
      name: "ask",
      description: "Asks.",
      inputSchema: v.object({}),
      effects: [],
      run: () => suspend({ reason: "Which?", resumeSchema }),
    });
    const end = await new ToolSet().register(tool).call({ id: "1", name: "ask" });
    assert.equal(end.type === "failed" && end.failure.kind, "contract", label);
    if (end.type === "failed") assert.match(end.failure.message, /declare it as the tool's resumeSchema/, label);
  }
});

Deno.test("A suspension with no resume schema in a tool that declares none is a contract failure", async () => {
  const tool = defineTool({
    name: "ask",
    description: "Asks.",
    inputSchema: v.object({}),
    effects: [],
    run: () => suspend({ reason: "Why?" }),
  });
  const end = await new ToolSet().register(tool).call({ id: "1", name: "ask" });
  assert.equal(end.type === "failed" && end.failure.kind, "contract");
});
