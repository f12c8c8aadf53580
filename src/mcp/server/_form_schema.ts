// A resume schema as an MCP elicitation form: a flat object of strings,
// numbers, integers, booleans and enums, with the keywords a form carries.
// Anything else (a pattern, say) is left out of the form and still checked
// when the answer comes back, since ToolSet.resume validates the answer
// against the whole resume schema.

import { isRecord } from "../../core/common/_is_record.ts";
import type { JsonSchema } from "../../core/schema/schema.ts";

/** An elicitation form's requested schema. */
export interface FormSchema {
  [key: string]: unknown;
  type: "object";
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
}

const PRIMITIVES = new Set(["string", "number", "integer", "boolean"]);
const KEPT = [
  "type",
  "title",
  "description",
  "enum",
  "default",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "format",
];

/** The form for a resume schema, or `undefined` when it is not a flat object of primitives. */
export function formSchema(schema: JsonSchema): FormSchema | undefined {
  if (!isRecord(schema) || schema.type !== "object" || !isRecord(schema.properties)) return undefined;
  const properties: Record<string, Record<string, unknown>> = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    if (!isRecord(property)) return undefined;
    const primitive = PRIMITIVES.has(property.type as string);
    // An enum without a type is asked as a string field, so it is one only when every value is a string.
    const strings = property.type === undefined && Array.isArray(property.enum) &&
      property.enum.every((value) => typeof value === "string");
    if (!primitive && !strings) return undefined;
    properties[name] = Object.fromEntries(KEPT.flatMap((key) => key in property ? [[key, property[key]]] : []));
    if (!primitive) properties[name].type = "string";
  }
  const required = Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === "string") : [];
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}) };
}
