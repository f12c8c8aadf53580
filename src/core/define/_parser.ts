// Adapts a compiled JSON Schema to the ParseResult shape tools use.

import type { ParseResult } from "../schema/schema.ts";
import type { CompiledSchema } from "../schema/schema.ts";

/**
 * A parse function that validates against a compiled schema and passes the
 * value through. It answers at once, but for a schema whose validator is
 * still loading (see `CompiledSchema.loading`), which it awaits first.
 */
export function parserFor(
  schema: CompiledSchema,
): (value: unknown) => ParseResult | Promise<ParseResult> {
  const parse = (value: unknown): ParseResult | Promise<ParseResult> => {
    const loading = schema.loading;
    if (loading !== undefined) return loading.then(() => parse(value));
    const outcome = schema.validate(value);
    if (outcome.ok) return { ok: true, value };
    return { ok: false, diagnostics: outcome.diagnostics, omitted: outcome.omitted };
  };
  return parse;
}
