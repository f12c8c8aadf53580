import assert from "node:assert/strict";
import * as v from "valibot";
import { defineTool, type SchemaInput, type SchemaOutput, ToolSet, type ValibotSchema } from "../../../mod.ts";

Deno.test("ValibotSchema fits sync and async Valibot schemas, and refuses a look-alike without ~run", () => {
  const sync: ValibotSchema<string, number> = v.pipe(v.string(), v.transform((text) => text.length));
  const async: ValibotSchema = v.objectAsync({ text: v.string() });
  // @ts-expect-error a schema needs Valibot's parse step
  const lookAlike: ValibotSchema = { kind: "schema", async: false };
  assert.deepEqual([sync.async, async.async, lookAlike.kind], [false, true, "schema"]);
});

Deno.test("SchemaInput and SchemaOutput read a schema's types, transforms applied", () => {
  const length = v.pipe(v.string(), v.transform((text) => text.length));
  const input: SchemaInput<typeof length> = "four";
  const output: SchemaOutput<typeof length> = v.parse(length, input);
  // @ts-expect-error the output is a number, not the input string
  const wrong: SchemaOutput<typeof length> = input;
  assert.deepEqual([output, wrong], [4, "four"]);
});

Deno.test("defineTool's handler gets the input schema's output type", async () => {
  const tool = defineTool({
    name: "measure",
    description: "Measures a text.",
    inputSchema: v.object({ text: v.pipe(v.string(), v.transform((text) => text.length)) }),
    effects: [],
    run: (input) => {
      const size: number = input.text;
      return { size };
    },
  });
  const end = await new ToolSet().register(tool).call({ id: "1", name: "measure", arguments: '{"text":"abc"}' });
  assert.deepEqual(end.type === "output" && end.result.output, { size: 3 });
});
