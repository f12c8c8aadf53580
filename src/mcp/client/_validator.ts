// The JSON Schema validator handed to the MCP SDK's client, so it never
// builds its default Ajv validator. It goes through the core's compiler, as
// for an untrusted schema: patterns on the linear-time engine, a step budget,
// the draft a schema declares, and no external references.

import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/client";
import { compileSchema } from "../../core/schema/compile_schema.ts";
import type { JsonSchema } from "../../core/schema/schema.ts";
import { linearPatterns } from "../../core/schema/validator/linear_patterns.ts";

function refuse(message: string): () => { valid: false; data: undefined; errorMessage: string } {
  return () => ({ valid: false, data: undefined, errorMessage: message });
}

/** A validator provider for the SDK's client, backed by `compileSchema`. */
export const cfworkerValidator: jsonSchemaValidator = {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    let compiled;
    try {
      compiled = compileSchema(schema as JsonSchema, { patterns: linearPatterns });
    } catch (error) {
      return refuse(error instanceof Error ? error.message : String(error));
    }
    return (input) => {
      let outcome;
      try {
        outcome = compiled.validate(input);
      } catch (error) {
        // Over the step budget: the schema is at fault, and the value is refused.
        return refuse(error instanceof Error ? error.message : String(error))();
      }
      if (outcome.ok) return { valid: true, data: input as T, errorMessage: undefined };
      const first = outcome.diagnostics[0];
      return { valid: false, data: undefined, errorMessage: `${first.path || "(value)"}: ${first.message}` };
    };
  },
};
