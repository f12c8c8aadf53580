// Adapts a compiled JSON Schema to the ParseResult shape tools use.

import type { ParseResult } from "../schema/schema.ts";
import type { CompiledSchema } from "../schema/schema.ts";

/** The schema each parse function made here checks against. */
const SCHEMAS = new WeakMap<object, CompiledSchema>();

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
  SCHEMAS.set(parse, schema);
  return parse;
}

/**
 * The compiled schema behind a parse function made by {@linkcode parserFor}:
 * a registry may validate with it directly, once it has loaded, for the same
 * outcome without the parser's wrapping. `undefined` for any other function.
 */
export function schemaOfParser(parse: unknown): CompiledSchema | undefined {
  return typeof parse === "function" ? SCHEMAS.get(parse) : undefined;
}
