// Restoring the arguments a model shown the OpenAI strict projection sends:
// strict mode makes every property required, so the model writes `null`
// for a property it means to leave out. Only properties the projection made
// nullable are restored to absent, by the same rule the projection used, so
// the arguments meet the tool's own schema again.

import type { JsonSchema } from "../../core/schema/schema.ts";
import { madeNullable, resolveLocalRef, type SchemaNode } from "../_projection.ts";
import { setOwn } from "../../core/common/_set_own.ts";
import { isRecord } from "../../core/common/_is_record.ts";

// Reference hops allowed without descending into the value: guards a
// schema whose references loop without ever describing a value.
const MAX_HOPS = 32;

function follow(schema: unknown, root: JsonSchema): SchemaNode | undefined {
  let node = schema;
  for (let hops = 0; isRecord(node) && typeof node.$ref === "string"; hops++) {
    if (hops === MAX_HOPS) return undefined;
    node = resolveLocalRef(root, node.$ref);
  }
  return isRecord(node) ? node : undefined;
}

function fitsValues(branch: SchemaNode, value: Record<string, unknown>): boolean {
  const properties = branch.properties as Record<string, unknown>;
  return Object.entries(properties).every(([key, property]) => {
    if (!isRecord(property)) return true;
    if ("const" in property) return property.const === value[key];
    return !Array.isArray(property.enum) || property.enum.includes(value[key]) || value[key] === null;
  });
}

/**
 * Picks the union branch a strict value was written for: strict mode sends
 * every declared property, so an object matches the branch whose property
 * names are exactly its keys (and whose constants it carries).
 */
function pickBranch(branches: readonly unknown[], value: unknown, root: JsonSchema): SchemaNode | undefined {
  const resolved = branches.map((branch) => follow(branch, root)).filter((branch) => branch !== undefined);
  if (Array.isArray(value)) return resolved.find((branch) => branch.items !== undefined);
  if (!isRecord(value)) return undefined;
  const keys = Object.keys(value).sort().join("\u0000");
  const sameKeys = resolved.filter((branch) =>
    isRecord(branch.properties) && Object.keys(branch.properties).sort().join("\u0000") === keys
  );
  return sameKeys.find((branch) => fitsValues(branch, value)) ?? sameKeys[0];
}

function restore(schema: unknown, value: unknown, root: JsonSchema): unknown {
  const node = follow(schema, root);
  if (!node) return value;
  const branches = [
    ...(Array.isArray(node.anyOf) ? node.anyOf : []),
    ...(Array.isArray(node.oneOf) ? node.oneOf : []),
  ];
  if (branches.length > 0) {
    const branch = pickBranch(branches, value, root);
    return branch ? restore(branch, value, root) : value;
  }
  if (Array.isArray(value)) {
    return isRecord(node.items) ? value.map((item) => restore(node.items, item, root)) : value;
  }
  if (!isRecord(value) || !isRecord(node.properties)) return value;
  const properties = node.properties;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (!Object.hasOwn(properties, key)) setOwn(out, key, item);
    else if (item !== null || !madeNullable(node, key, root)) setOwn(out, key, restore(properties[key], item, root));
  }
  return out;
}

/**
 * Turns the `null` a strict model sent for each property the OpenAI strict
 * projection made nullable (an optional property whose schema refuses
 * `null`) back into absence. Only such a `null` changes, and under the
 * tool's own schema it could never be valid, so no valid value changes
 * meaning. The arguments are not changed.
 */
export function restoreStrictArguments(
  inputSchema: JsonSchema,
  args: Record<string, unknown>,
): Record<string, unknown> {
  return restore(inputSchema, args, inputSchema) as Record<string, unknown>;
}
