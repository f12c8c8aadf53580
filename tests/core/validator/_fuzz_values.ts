// Values for the differential fuzz, biased to land near a schema so that both
// verdicts are common: instances built from the schema's keywords, those
// instances changed in one place, and arbitrary JSON.

import { fc } from "../../dev_deps.ts";
import {
  fromEntries,
  type FuzzDraft,
  type FuzzSchema,
  NAME_PATTERNS,
  NAMES,
  STRING_PATTERNS,
} from "./_fuzz_schemas.ts";

type View = Record<string, unknown>;

const KEYS = [...NAMES, "d", "_x"];
const STRINGS = ["", "a", "b", "ab", "abc", "😀", "a😀", "\ud800", "1", "é", "2024-01-01", "x@y.z"];
const NUMBERS = [0, 1, -1, 2, 3, 0.5, -2.5, 0.1, 0.3, 0.1 + 0.2, 1.1, 1e21, -0, 2 ** 53 + 2, 1e308, 5e-324];

const scalar = fc.oneof(
  fc.constantFrom(null, true, false),
  fc.constantFrom(...NUMBERS),
  fc.integer({ min: -6, max: 6 }),
  fc.constantFrom(...STRINGS),
);

/** Arbitrary JSON, small. */
export const anyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    scalar,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.uniqueArray(fc.tuple(fc.constantFrom(...KEYS), tie("value")), { maxLength: 4, selector: ([key]) => key })
      .map(fromEntries),
  ),
})).value;

// Deeper than this, an instance is any scalar: `$ref: "#"` recurses without end otherwise.
const MAX_VALUE_DEPTH = 4;

interface Context {
  readonly root: View;
  readonly draft: FuzzDraft;
}

function isView(value: unknown): value is View {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The schema a generated `$ref` names: the root, a definition by pointer, or the anchored one. */
function resolve(root: View, ref: string): unknown {
  if (ref === "#") return root;
  const defs = (root.$defs ?? root.definitions) as View;
  if (!ref.startsWith("#/")) return defs.d1;
  return ref.slice(2).split("/").reduce<unknown>((node, token) => (node as View)[token], root);
}

const LOWER = new Set(["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"]);
const UPPER = new Set(["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"]);

function typeList(type: unknown): string[] {
  return typeof type === "string" ? [type] : (type as string[]);
}

/** Two views read as one: maps merged, bounds tightened, required names joined; otherwise `b` wins. */
function mergeViews(a: View, b: View): View {
  const out: View = { ...a };
  for (const [key, value] of Object.entries(b)) {
    if (!(key in out)) out[key] = value;
    else if (key === "properties" || key === "patternProperties") {
      const mine = out[key] as View;
      const theirs = Object.entries(value as View).map(([name, schema]) =>
        [name, Object.hasOwn(mine, name) ? { allOf: [mine[name], schema] } : schema] as const
      );
      out[key] = fromEntries([...Object.entries(mine), ...theirs]);
    } else if (key === "required") out[key] = [...new Set([...(out[key] as string[]), ...(value as string[])])];
    else if (LOWER.has(key)) out[key] = Math.max(out[key] as number, value as number);
    else if (UPPER.has(key)) out[key] = Math.min(out[key] as number, value as number);
    else if (key === "type") {
      const mine = typeList(out[key]);
      const both = typeList(value).filter((type) =>
        mine.includes(type) || (type === "integer" && mine.includes("number"))
      );
      out[key] = both.length > 0 ? both : value;
    } else out[key] = value;
  }
  return out;
}

const IN_PLACE = new Set(["$ref", "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas"]);

/** The keywords one instance should satisfy: the schema's own, its references', and one branch of each choice. */
function viewOf(schema: unknown, context: Context, hops: number): fc.Arbitrary<View> {
  if (!isView(schema) || hops > 6) return fc.constant({});
  const { root, draft } = context;
  if (typeof schema.$ref === "string" && draft === "7") return viewOf(resolve(root, schema.$ref), context, hops + 1);
  const parts: fc.Arbitrary<View>[] = [];
  if (typeof schema.$ref === "string") parts.push(viewOf(resolve(root, schema.$ref), context, hops + 1));
  for (const branch of (schema.allOf ?? []) as unknown[]) parts.push(viewOf(branch, context, hops + 1));
  for (const keyword of ["anyOf", "oneOf"]) {
    const branches = schema[keyword] as unknown[] | undefined;
    if (branches) parts.push(fc.oneof(...branches.map((branch) => viewOf(branch, context, hops + 1))));
  }
  if ("if" in schema) {
    const holds = fc.tuple(viewOf(schema.if, context, hops + 1), viewOf(schema.then, context, hops + 1))
      .map(([condition, then]) => mergeViews(condition, then));
    parts.push(fc.oneof(holds, viewOf(schema.else, context, hops + 1)));
  }
  parts.push(fc.constant(fromEntries(Object.entries(schema).filter(([key]) => !IN_PLACE.has(key)))));
  return fc.tuple(...parts).map((views) => views.reduce(mergeViews, {}));
}

const HINTS: Readonly<Record<string, readonly string[]>> = {
  object: [
    "properties",
    "patternProperties",
    "additionalProperties",
    "required",
    "minProperties",
    "maxProperties",
    "propertyNames",
    "dependentRequired",
    "dependencies",
    "unevaluatedProperties",
  ],
  array: [
    "prefixItems",
    "items",
    "additionalItems",
    "contains",
    "minItems",
    "maxItems",
    "uniqueItems",
    "unevaluatedItems",
  ],
  string: ["minLength", "maxLength", "pattern", "format"],
  number: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
};

function typesOf(view: View): string[] {
  if ("type" in view) return typeList(view.type);
  const hinted = Object.keys(HINTS).filter((type) => HINTS[type].some((keyword) => keyword in view));
  return hinted.length > 0 ? hinted : ["null", "boolean", "object", "array", "number", "integer", "string"];
}

/** A number within the view's bounds, a multiple of its `multipleOf` when it has one. */
function numberIn(view: View, integral: boolean): fc.Arbitrary<unknown> {
  const read = (keyword: string, fallback: number) => (view[keyword] as number | undefined) ?? fallback;
  let low = Math.max(read("minimum", -Infinity), read("exclusiveMinimum", -Infinity) + 0.5);
  let high = Math.min(read("maximum", Infinity), read("exclusiveMaximum", Infinity) - 0.5);
  if (low === -Infinity) low = Math.min(high, 5) - 10;
  if (high === Infinity) high = low + 10;
  const step = (view.multipleOf as number | undefined) ?? (integral ? 1 : 0.5);
  const first = Math.ceil(low / step);
  const last = Math.max(first, Math.floor(high / step));
  // The product as floating point computes it (3 * 0.1 is 0.30000000000000004) and as its decimal.
  return fc.tuple(fc.integer({ min: first, max: Math.min(last, first + 12) }), fc.boolean())
    .map(([k, decimal]) => decimal ? Number((k * step).toPrecision(12)) : k * step);
}

function stringIn(view: View): fc.Arbitrary<unknown> {
  const samples = typeof view.pattern === "string" ? STRING_PATTERNS[view.pattern] : undefined;
  if (samples) return fc.constantFrom(...samples);
  const min = (view.minLength as number | undefined) ?? 0;
  const max = Math.max(min, Math.min((view.maxLength as number | undefined) ?? min + 3, min + 3));
  return fc.array(fc.constantFrom("a", "b", "😀"), { minLength: min, maxLength: max }).map((chars) => chars.join(""));
}

function arrayIn(view: View, context: Context, depth: number): fc.Arbitrary<unknown> {
  const tupleForm = context.draft === "7" && Array.isArray(view.items);
  const prefix = ((context.draft === "7" ? (tupleForm ? view.items : []) : view.prefixItems) ?? []) as unknown[];
  const rest = context.draft === "7"
    ? (tupleForm ? view.additionalItems : view.items)
    : ("items" in view ? view.items : view.unevaluatedItems);
  const min = (view.minItems as number | undefined) ?? 0;
  const max = Math.max(min, Math.min((view.maxItems as number | undefined) ?? min + 3, min + 3));
  const items = fc.integer({ min, max }).chain((length) =>
    fc.tuple(
      ...Array.from({ length }, (_, i) => instanceOf(i < prefix.length ? prefix[i] : rest, context, depth + 1)),
    )
  );
  if (!("contains" in view)) return items;
  const wanted = context.draft === "7" ? 1 : (view.minContains as number | undefined) ?? 1;
  const contained = fc.array(instanceOf(view.contains, context, depth + 1), { minLength: wanted, maxLength: wanted });
  return fc.tuple(items, contained).map(([list, extra]) => [...list, ...extra]);
}

function objectIn(view: View, context: Context, depth: number): fc.Arbitrary<unknown> {
  const properties = (view.properties ?? {}) as View;
  const patterns = (view.patternProperties ?? {}) as View;
  const required = (view.required ?? []) as string[];
  const closed = view.additionalProperties === false;
  const extras = [
    ...new Set([...Object.keys(patterns).flatMap((pattern) => NAME_PATTERNS[pattern] ?? []), ...(closed ? [] : KEYS)]),
  ];
  const dependencies = fromEntries(
    Object.entries({ ...(view.dependencies as View), ...(view.dependentRequired as View) })
      .filter(([, names]) => Array.isArray(names)),
  ) as Record<string, string[]>;
  const schemaFor = (key: string): unknown => {
    const matching = Object.keys(patterns).filter((pattern) => new RegExp(pattern, "u").test(key))
      .map((pattern) => patterns[pattern]);
    const declared = Object.hasOwn(properties, key) ? [properties[key]] : [];
    if (declared.length + matching.length > 0) return { allOf: [...declared, ...matching] };
    return view.additionalProperties ?? view.unevaluatedProperties ?? true;
  };
  const chosen = fc.tuple(
    fc.subarray(Object.keys(properties)),
    fc.subarray(extras, { maxLength: Math.min(2, extras.length) }),
  );
  return chosen.chain(([declared, extra]) => {
    const keys = [...new Set([...required, ...declared, ...extra])];
    for (let i = 0; i < keys.length; i++) {
      const needs = Object.hasOwn(dependencies, keys[i]) ? dependencies[keys[i]] : [];
      for (const needed of needs) if (!keys.includes(needed)) keys.push(needed);
    }
    const kept = keys.slice(0, Math.max(required.length, (view.maxProperties as number | undefined) ?? keys.length));
    return fc.tuple(...kept.map((key) => instanceOf(schemaFor(key), context, depth + 1)))
      .map((values) => fromEntries(kept.map((key, i) => [key, values[i]])));
  });
}

function fromView(view: View, context: Context, depth: number): fc.Arbitrary<unknown> {
  if ("const" in view) return fc.constant(view.const);
  if (Array.isArray(view.enum) && view.enum.length > 0) return fc.constantFrom(...view.enum);
  return fc.constantFrom(...typesOf(view)).chain((type) => {
    switch (type) {
      case "null":
        return fc.constant(null);
      case "boolean":
        return fc.boolean();
      case "integer":
      case "number":
        return numberIn(view, type === "integer");
      case "string":
        return stringIn(view);
      case "array":
        return arrayIn(view, context, depth);
      default:
        return objectIn(view, context, depth);
    }
  });
}

/** Values meant to satisfy `schema`; most do, the rest fail near the boundary. */
function instanceOf(schema: unknown, context: Context, depth: number): fc.Arbitrary<unknown> {
  if (depth > MAX_VALUE_DEPTH) return scalar;
  // Lazy: a recursive schema must not build its whole tree of arbitraries up front.
  return fc.constant(null).chain(() => viewOf(schema, context, 0).chain((view) => fromView(view, context, depth)));
}

/** One change to a value, at the `at`-th place in it (the value itself, then its items and properties). */
interface Mutation {
  readonly at: number;
  readonly kind: "replace" | "drop" | "add" | "duplicate" | "nudge" | "reorder" | "stretch";
  readonly payload: unknown;
  readonly step: number;
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom("replace", "drop", "add", "duplicate", "nudge", "reorder", "stretch"),
  payload: anyJson,
  step: fc.nat(),
});

function cloneJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneJson);
  if (isView(value)) return fromEntries(Object.entries(value).map(([key, item]) => [key, cloneJson(item)]));
  return value;
}

function nudged(value: unknown, step: number): unknown {
  if (typeof value === "number") return [value + 1, value - 1, value + 0.5, -value, value + 0.1, value * 10][step % 6];
  if (typeof value === "string") return [`${value}a`, value.slice(1), `${value}😀`, ""][step % 4];
  if (typeof value === "boolean") return !value;
  if (Array.isArray(value)) return value.slice(1);
  if (isView(value)) return fromEntries(Object.entries(value).slice(1));
  return 0;
}

function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (!isView(value)) return value;
  return fromEntries(Object.entries(value).reverse().map(([key, item]) => [key, reversedKeys(item)]));
}

/** `count` different items of mixed kinds; for some steps the last repeats an earlier one, keys reordered. */
function distinctItems(count: number, step: number): unknown[] {
  const items: unknown[] = Array.from(
    { length: count },
    (_, i) => [i, `s${i}`, { a: i, b: [i] }, [i, { c: i }]][i % 4],
  );
  if (step % 2 === 0) items.push(reversedKeys(items[step % count]));
  return items;
}

/** Applies a mutation to a copy of `value`. */
function mutate(value: unknown, { at, kind, payload, step }: Mutation): unknown {
  const root = { value: cloneJson(value) } as View;
  const places: [View | unknown[], string | number][] = [];
  const collect = (parent: View | unknown[], key: string | number) => {
    places.push([parent, key]);
    const item = (parent as View)[key];
    if (Array.isArray(item)) item.forEach((_, i) => collect(item, i));
    else if (isView(item)) { for (const name of Object.keys(item)) collect(item, name); }
  };
  collect(root, "value");
  const [parent, key] = places[at % places.length];
  const target = (parent as View)[key];
  const set = (next: unknown) => {
    if (Array.isArray(parent)) parent[key as number] = next;
    else Object.defineProperty(parent, key, { value: next, enumerable: true, writable: true, configurable: true });
  };
  switch (kind) {
    case "replace":
      set(payload);
      break;
    case "drop":
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else if (parent !== root) delete parent[key as string];
      else set(nudged(target, step));
      break;
    case "add":
      if (Array.isArray(target)) target.push(payload);
      else if (isView(target)) {
        Object.defineProperty(target, KEYS[step % KEYS.length], {
          value: payload,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else set(payload);
      break;
    case "reorder":
      // The same value with its keys (all the way down) or items in another order.
      if (isView(target)) set(reversedKeys(target));
      else if (Array.isArray(target)) set(target.toReversed());
      else set(nudged(target, step));
      break;
    case "stretch":
      // Past 16 items, uniqueItems compares by canonical text instead of pairwise.
      if (Array.isArray(target)) target.push(...distinctItems(17, step));
      else set(distinctItems(17, step));
      break;
    case "duplicate":
      if (Array.isArray(target) && target.length > 0) target.push(cloneJson(target[step % target.length]));
      else set(nudged(target, step));
      break;
    default:
      set(nudged(target, step));
  }
  return root.value;
}

/** Values near a generated schema: instances, instances changed in one place, and arbitrary JSON. */
export function valuesNear({ schema, draft }: FuzzSchema): fc.Arbitrary<unknown> {
  const instance = instanceOf(schema, { root: schema, draft }, 0);
  return fc.oneof(
    { arbitrary: instance, weight: 5 },
    { arbitrary: fc.tuple(instance, mutation).map(([value, change]) => mutate(value, change)), weight: 4 },
    { arbitrary: anyJson, weight: 1 },
  );
}
