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

function fitsValues(branch: SchemaNode, value: Record<string, unknown>, root: JsonSchema): boolean {
  const properties = branch.properties as Record<string, unknown>;
  return Object.entries(properties).every(([key, schema]) => {
    // The constant may sit behind a reference, as a shared definition often does.
    const property = follow(schema, root);
    if (property === undefined || value[key] === null) return true;
    if ("const" in property) return property.const === value[key];
    return !Array.isArray(property.enum) || property.enum.includes(value[key]);
  });
}

/**
 * Picks the union branches a strict value may have been written for:
 * strict mode sends every declared property, so an object fits the
 * branches whose property names are exactly its keys (and whose constants
 * it carries, or, when none does, all of them).
 */
function pickBranches(branches: readonly unknown[], value: unknown, root: JsonSchema): SchemaNode[] {
  const resolved = branches.map((branch) => follow(branch, root)).filter((branch) => branch !== undefined);
  if (Array.isArray(value)) return resolved.filter((branch) => branch.items !== undefined);
  if (!isRecord(value)) return [];
  const keys = Object.keys(value).sort().join("\u0000");
  const sameKeys = resolved.filter((branch) =>
    isRecord(branch.properties) && Object.keys(branch.properties).sort().join("\u0000") === keys
  );
  const fitting = sameKeys.filter((branch) => fitsValues(branch, value, root));
  return fitting.length > 0 ? fitting : sameKeys;
}

/**
 * The nodes a strict value may have been written for: the schema itself,
 * or through its unions the branches that fit the value. Each node is
 * visited once, so shared and looping references cost nothing more.
 */
function candidates(schemas: readonly unknown[], value: unknown, root: JsonSchema): SchemaNode[] {
  const visited = new Set<SchemaNode>();
  const found: SchemaNode[] = [];
  const visit = (schema: unknown) => {
    const node = follow(schema, root);
    if (node === undefined || visited.has(node)) return;
    visited.add(node);
    const branches = [
      ...(Array.isArray(node.anyOf) ? node.anyOf : []),
      ...(Array.isArray(node.oneOf) ? node.oneOf : []),
    ];
    if (branches.length === 0) found.push(node);
    else pickBranches(branches, value, root).forEach(visit);
  };
  schemas.forEach(visit);
  return found;
}

/**
 * Restores a value written for any of `schemas`: where they disagree (a
 * union whose fitting branches differ), only what every one of them would
 * change is changed.
 */
function restore(schemas: readonly unknown[], value: unknown, root: JsonSchema): unknown {
  const nodes = candidates(schemas, value, root);
  if (nodes.length === 0) return value;
  if (Array.isArray(value)) {
    const items = nodes.map((node) => node.items);
    return items.every(isRecord) ? value.map((item) => restore(items, item, root)) : value;
  }
  if (!isRecord(value) || !nodes.every((node) => isRecord(node.properties))) return value;
  const declared = nodes.map((node) => node.properties as Record<string, unknown>);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (!declared.every((properties) => Object.hasOwn(properties, key))) setOwn(out, key, item);
    else if (item !== null || !nodes.every((node) => madeNullable(node, key, root))) {
      setOwn(out, key, restore(declared.map((properties) => properties[key]), item, root));
    }
  }
  return out;
}

/**
 * Turns the `null` a strict model sent for each property the OpenAI strict
 * projection made nullable (an optional property whose schema certainly
 * refuses `null`) back into absence. Only such a `null` changes, and under
 * the tool's own schema it could never be valid, so no valid value changes
 * meaning; where the value fits several union branches, a `null` changes
 * only when every one of them made it nullable. The arguments are not
 * changed.
 */
export function restoreStrictArguments(
  inputSchema: JsonSchema,
  args: Record<string, unknown>,
): Record<string, unknown> {
  return restore([inputSchema], args, inputSchema) as Record<string, unknown>;
}
