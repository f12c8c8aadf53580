// The tools the registry case registers: raw JSON Schema tools, each with a
// schema of its own, as a host with many distinct tools has.

import { type DefinedTool, defineJsonTool } from "../mod.ts";

/**
 * Defines `count` read tools with distinct schemas.
 *
 * @param count How many.
 * @param withPattern Whether each schema's path has a `pattern`, which the compiled validator runs on an engine
 * loaded with it, apart from the core.
 * @returns The tools, in name order.
 */
export function makeTools(count: number, withPattern = false): DefinedTool[] {
  return Array.from({ length: count }, (_, i) =>
    defineJsonTool({
      name: `tool_${String(i).padStart(5, "0")}`,
      description: `Reads entry ${i}.`,
      inputSchema: {
        type: "object",
        properties: {
          path: { type: "string", minLength: 1, ...(withPattern ? { pattern: "^[a-z0-9/._-]+$" } : {}) },
          [`limit_${i}`]: { type: "integer", minimum: 1, maximum: 1000 },
        },
        required: ["path"],
        additionalProperties: false,
      },
      effects: ["fs.read"],
      run: () => ({ ok: true }),
    }));
}
