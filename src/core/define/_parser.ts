// Adapts a compiled JSON Schema to the ParseResult shape tools use.

import type { ParseResult } from "../schema/schema.ts";
import type { CompiledSchema } from "../schema/schema.ts";

/** A parse function that validates against a compiled schema and passes the value through. */
export function parserFor(
  schema: CompiledSchema,
): (value: unknown) => ParseResult {
  return (value) => {
    const outcome = schema.validate(value);
    if (outcome.ok) return { ok: true, value };
    return {
      ok: false,
      diagnostics: outcome.diagnostics,
      omitted: outcome.omitted,
    };
  };
}
