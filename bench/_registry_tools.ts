// The tools the registry case registers: raw JSON Schema tools, each with a
// schema of its own, as a host with many distinct tools has.

import { type DefinedTool, defineJsonTool } from "../mod.ts";

/**
 * Defines `count` read tools with distinct schemas.
 *
 * @param count How many.
 * @returns The tools, in name order.
 */
export function makeTools(count: number): DefinedTool[] {
  return Array.from({ length: count }, (_, i) =>
    defineJsonTool({
      name: `tool_${String(i).padStart(5, "0")}`,
      description: `Reads entry ${i}.`,
      inputSchema: {
        type: "object",
        properties: {
          path: { type: "string", minLength: 1 },
          [`limit_${i}`]: { type: "integer", minimum: 1, maximum: 1000 },
        },
        required: ["path"],
        additionalProperties: false,
      },
      effects: ["fs.read"],
      run: () => ({ ok: true }),
    }));
}
