// OpenAI strict mode (Structured Outputs): the keyword table and the
// rewrite of an input schema into the form strict mode accepts. Shared by
// the OpenAI projection and by the dispatcher's restore of strict arguments.

import type { ProjectionWarning } from "../projection.ts";
import type { JsonSchema } from "../../core/schema/schema.ts";
import {
  acceptsNull,
  Findings,
  type KeywordTable,
  madeNullable,
  projectKeywords,
  resolveLocalRef,
  type SchemaNode,
  typesOf,
} from "../_projection.ts";
import { appendPointer } from "../../core/common/_json_pointer.ts";
import { isRecord } from "../../core/common/_is_record.ts";

// The strict-mode rules, from "Supported schemas" in
// https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
// (types string, number, integer, boolean, object, array, null, enum and
// anyOf; every property required; `additionalProperties: false` on every
// object; local `$ref` into `$defs` allowed, recursion included; at most
// 5000 properties, 10 levels of nesting and 1000 enum values).
// Constraints strict mode ignores but that do not change the shape are
// dropped with a warning: dispatch still checks them, so a value that
// breaks one comes back as invalid_input, never reaches the handler.
const WIDENS = "strict mode does not support it; dispatch still checks it against the tool's own schema";
const STRICT_TABLE: KeywordTable = {
  rules: {
    type: "keep",
    enum: "keep",
    const: "special",
    description: "keep",
    title: "keep",
    default: "keep",
    examples: "keep",
    $comment: "keep",
    $schema: "keep",
    $id: "keep",
    deprecated: "keep",
    readOnly: "keep",
    writeOnly: "keep",
    pattern: "keep",
    format: "keep",
    minLength: "keep",
    maxLength: "keep",
    minimum: "keep",
    maximum: "keep",
    exclusiveMinimum: "keep",
    exclusiveMaximum: "keep",
    multipleOf: "keep",
    minItems: "keep",
    maxItems: "keep",
    properties: "schema_map",
    required: "special",
    additionalProperties: "special",
    unevaluatedProperties: "special",
    items: "special",
    anyOf: "schemas",
    oneOf: "special",
    $ref: "special",
    $defs: "schema_map",
    definitions: "schema_map",
    uniqueItems: { drop: WIDENS },
    minProperties: { drop: WIDENS },
    maxProperties: { drop: WIDENS },
    contains: { drop: WIDENS },
    minContains: { drop: WIDENS },
    maxContains: { drop: WIDENS },
    not: { drop: WIDENS },
    if: { drop: WIDENS },
    then: { drop: WIDENS },
    else: { drop: WIDENS },
    dependentRequired: { drop: WIDENS },
    dependentSchemas: { drop: WIDENS },
    dependencies: { drop: WIDENS },
    propertyNames: { drop: WIDENS },
    contentEncoding: { drop: WIDENS },
    contentMediaType: { drop: WIDENS },
    contentSchema: { drop: WIDENS },
    unevaluatedItems: { drop: WIDENS },
    patternProperties: {
      unsupported: "strict mode closes every object, so the properties these patterns allow could never be sent",
    },
    allOf: { unsupported: "strict mode has no intersection of schemas" },
    prefixItems: { unsupported: "strict mode has no tuples: every item of an array has one schema" },
    additionalItems: { unsupported: "strict mode has no tuples: every item of an array has one schema" },
    $dynamicRef: { unsupported: "strict mode resolves only local $ref into $defs" },
    $dynamicAnchor: { unsupported: "strict mode resolves only local $ref into $defs" },
    $recursiveRef: { unsupported: "strict mode resolves only local $ref into $defs" },
    $recursiveAnchor: { unsupported: "strict mode resolves only local $ref into $defs" },
    $anchor: { unsupported: "strict mode resolves only local $ref into $defs" },
  },
  otherwise: { drop: "strict mode does not know this keyword" },
};
const STRICT_LIMITS = { properties: 5000, nesting: 10, enumValues: 1000 } as const;
const LOCAL_DEFINITION = /^#(\/(\$defs|definitions)\/[^/]+)?$/;

/** The strict form of an input schema, or why there is none. */
export interface StrictSchema {
  readonly schema: { [keyword: string]: unknown } | undefined;
  readonly warnings: readonly ProjectionWarning[];
  readonly problems: readonly ProjectionWarning[];
}

/** Adds `null` to what a schema accepts, the way strict mode spells an optional property. */
function orNull(schema: unknown): unknown {
  if (!isRecord(schema) || typeof schema.$ref === "string" || schema.type === undefined) {
    if (isRecord(schema) && Array.isArray(schema.anyOf) && schema.$ref === undefined) {
      return { ...schema, anyOf: [...schema.anyOf, { type: "null" }] };
    }
    return { anyOf: [schema, { type: "null" }] };
  }
  // The type may list null already, when another keyword (an enum, a const, a not) is what refuses it.
  const types = typesOf(schema);
  const out: Record<string, unknown> = { ...schema, type: types.includes("null") ? types : [...types, "null"] };
  if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
  return out;
}

function strictObject(
  node: SchemaNode,
  out: Record<string, unknown>,
  path: string,
  root: JsonSchema,
  findings: Findings,
): void {
  const extra = node.additionalProperties ?? node.unevaluatedProperties;
  const declared = isRecord(node.properties) && Object.keys(node.properties).length > 0;
  if (extra === undefined && !declared && path !== "/inputSchema") {
    // Below the root, an object that declares nothing is a free-form map;
    // closing it would leave the model nothing but {}. At the root it is
    // a tool without parameters.
    findings.refuse(
      path,
      "properties",
      "Cannot express an object that declares no properties, as strict mode closes every object: current value is an open object",
    );
  } else if (extra === undefined) {
    findings.warn(
      appendPointer(path, "additionalProperties"),
      "additionalProperties",
      "Closed the object with additionalProperties: false, as strict mode requires: properties it does not declare cannot be sent",
    );
  } else if (extra !== false) {
    findings.refuse(
      appendPointer(path, "additionalProperties"),
      "additionalProperties",
      `Cannot express an open map as strict mode closes every object: current value is ${
        JSON.stringify(extra).slice(0, 80)
      }`,
    );
  }
  out.additionalProperties = false;
  const properties = isRecord(out.properties) ? out.properties : {};
  const required = Array.isArray(node.required) ? node.required : [];
  for (const key of required) {
    if (typeof key === "string" && !Object.hasOwn(properties, key)) {
      findings.refuse(
        appendPointer(path, "required"),
        "required",
        `Cannot require a property the object does not declare, as strict mode sends only declared ones: current value is ${
          JSON.stringify(key)
        }`,
      );
    }
  }
  for (const key of Object.keys(properties)) {
    const at = appendPointer(appendPointer(path, "properties"), key);
    if (madeNullable(node, key, root)) {
      properties[key] = orNull(properties[key]);
    } else if (!required.includes(key)) {
      findings.warn(
        at,
        "required",
        acceptsNull((node.properties as SchemaNode)[key], root)
          ? "The optional property already accepts null, so strict mode can only send a value or null for it, never leave it out"
          : "Kept the optional property as it is, as whether its schema accepts null cannot be told: strict mode always sends a value for it, never leaves it out",
      );
    }
  }
  out.properties = properties;
  out.required = Object.keys(properties);
}

function strictNode(schema: unknown, path: string, root: JsonSchema, findings: Findings): unknown {
  if (!isRecord(schema)) {
    findings.refuse(
      path,
      "type",
      `Cannot express a boolean schema as strict mode needs a type for every value: current value is ${
        JSON.stringify(schema)
      }`,
    );
    return schema;
  }
  const project = (child: unknown, at: string) => strictNode(child, at, root, findings);
  const out = projectKeywords(schema, path, STRICT_TABLE, findings, project);
  if (typeof schema.$ref === "string") {
    if (!LOCAL_DEFINITION.test(schema.$ref)) {
      findings.refuse(
        appendPointer(path, "$ref"),
        "$ref",
        `Cannot follow the reference as strict mode resolves only "#" and "#/$defs/...": current value is ${
          JSON.stringify(schema.$ref)
        }`,
      );
    } else if (resolveLocalRef(root, schema.$ref) === undefined) {
      // OpenAI refuses the whole request over a reference to nothing, so it is refused here, where its path is known.
      findings.refuse(
        appendPointer(path, "$ref"),
        "$ref",
        `Cannot follow the reference as it points to nothing in the schema: current value is ${
          JSON.stringify(schema.$ref)
        }`,
      );
    } else out.$ref = schema.$ref;
  }
  if ("const" in schema) out.enum = [structuredClone(schema.const)];
  if (Array.isArray(schema.oneOf)) {
    if (schema.anyOf !== undefined) {
      findings.refuse(
        appendPointer(path, "oneOf"),
        "oneOf",
        "Cannot express oneOf beside anyOf, as strict mode has only anyOf: current value is both at one node",
      );
    } else {
      findings.warn(
        appendPointer(path, "oneOf"),
        "oneOf",
        "Sent oneOf as anyOf, as strict mode has no oneOf: dispatch still checks that exactly one branch matches",
      );
      out.anyOf = schema.oneOf.map((child, i) =>
        project(child, appendPointer(appendPointer(path, "oneOf"), String(i)))
      );
    }
  }
  const types = typesOf(schema);
  const shaped = ["type", "enum", "const", "anyOf", "oneOf", "$ref"].some((keyword) => keyword in schema);
  if (!shaped) {
    findings.refuse(
      path,
      "type",
      `Cannot express a schema that accepts any value, as strict mode needs a type: current value is ${
        JSON.stringify(schema).slice(0, 80)
      }`,
    );
  }
  if (types.includes("object") || (schema.type === undefined && isRecord(schema.properties))) {
    strictObject(schema, out, path, root, findings);
  }
  if (schema.items !== undefined) {
    if (Array.isArray(schema.items)) {
      findings.refuse(appendPointer(path, "items"), "items", "Cannot express a tuple, as strict mode has none");
    } else out.items = project(schema.items, appendPointer(path, "items"));
  } else if (types.includes("array")) {
    findings.refuse(
      path,
      "items",
      "Cannot express an array without items, as strict mode needs a schema for them: current value is no items",
    );
  }
  return out;
}

function countLimits(
  schema: unknown,
  nesting: number,
  totals: { properties: number; enumValues: number; nesting: number },
) {
  if (!isRecord(schema)) return;
  if (Array.isArray(schema.enum)) totals.enumValues += schema.enum.length;
  const properties = isRecord(schema.properties) ? schema.properties : undefined;
  const depth = properties ? nesting + 1 : nesting;
  totals.nesting = Math.max(totals.nesting, depth);
  if (properties) totals.properties += Object.keys(properties).length;
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === "enum" || keyword === "const" || keyword === "default" || keyword === "examples") continue;
    const children = keyword === "properties" || keyword === "$defs" || keyword === "definitions"
      ? Object.values(isRecord(value) ? value : {})
      : Array.isArray(value)
      ? value
      : [value];
    for (const child of children) countLimits(child, depth, totals);
  }
}

const strictCache = new WeakMap<object, StrictSchema>();

/**
 * Projects an input schema to OpenAI's strict mode. Pure; the result for a
 * frozen schema (every descriptor's) is computed once.
 */
export function strictSchemaOf(inputSchema: JsonSchema): StrictSchema {
  const cached = typeof inputSchema === "object" ? strictCache.get(inputSchema) : undefined;
  if (cached) return cached;
  const findings = new Findings();
  const schema = strictNode(inputSchema, "/inputSchema", inputSchema, findings) as Record<string, unknown>;
  for (const keyword of ["anyOf", "oneOf"]) {
    if (typeof inputSchema === "object" && inputSchema[keyword] !== undefined) {
      findings.refuse(
        `/inputSchema/${keyword}`,
        keyword,
        `Cannot express a union at the root, as strict mode needs a root object: current value is ${keyword} at the root`,
      );
    }
  }
  const totals = { properties: 0, enumValues: 0, nesting: 0 };
  countLimits(schema, 0, totals);
  for (const [limit, most] of Object.entries(STRICT_LIMITS)) {
    const found = totals[limit as keyof typeof totals];
    if (found > most) {
      findings.refuse(
        "/inputSchema",
        limit,
        `Cannot fit the schema in strict mode as it allows at most ${most} ${limit}: current value is ${found}`,
      );
    }
  }
  const result: StrictSchema = Object.freeze({
    schema: findings.problems.length === 0 ? schema : undefined,
    // Frozen to the last object: a cached result is handed to every caller.
    warnings: Object.freeze(findings.warnings.map((warning) => Object.freeze(warning))),
    problems: Object.freeze(findings.problems.map((problem) => Object.freeze(problem))),
  });
  if (typeof inputSchema === "object" && Object.isFrozen(inputSchema)) strictCache.set(inputSchema, result);
  return result;
}
