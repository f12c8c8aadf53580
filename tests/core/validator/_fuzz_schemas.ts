// Random JSON Schemas for the differential fuzz: every keyword the compiled
// validator implements, nested a few schemas deep, as 2020-12 and as draft-07
// (declared in `$schema`), with `$ref`s into `$defs` / `definitions`, to an
// anchor and back to the root.

import { fc } from "../../dev_deps.ts";

/** The drafts fuzzed. */
export type FuzzDraft = "2020-12" | "7";

/** A generated root schema and the draft it declares. */
export interface FuzzSchema {
  readonly draft: FuzzDraft;
  readonly schema: Record<string, unknown>;
}

/** Property names schemas and values share: two are names every object inherits, one needs escaping in a JSON Pointer. */
export const NAMES: readonly string[] = ["a", "b", "c", "ab", "~a/b", "constructor", "__proto__"];

/** `pattern` sources, each with strings it matches (code points beyond U+FFFF included). */
export const STRING_PATTERNS: Readonly<Record<string, readonly string[]>> = {
  "^a": ["a", "ab", "a😀"],
  "b$": ["b", "ab", "😀b"],
  "^[ab]+$": ["a", "ab", "bab"],
  "\\d": ["1", "a2"],
  "^.{2}$": ["ab", "😀a"],
  "^\\p{L}+$": ["ab", "é"],
};

/** `patternProperties` sources, each with property names it matches. */
export const NAME_PATTERNS: Readonly<Record<string, readonly string[]>> = {
  "^a": ["a", "ab"],
  "b": ["b", "ab"],
  "^[cd]$": ["c", "d"],
  "^_": ["__proto__", "_x"],
};

const TYPES = ["null", "boolean", "object", "array", "number", "string", "integer"];
const FORMATS = ["date-time", "email", "uri", "uuid", "ipv4", "hostname", "date", "x-custom"];
const ANCHOR = "A1";

/** An object from entries, keeping `__proto__` an own property as JSON.parse does. */
export function fromEntries(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  return Object.fromEntries(entries);
}

const name = fc.constantFrom(...NAMES);
const names = fc.uniqueArray(name, { maxLength: 3 });
const count = fc.integer({ min: 0, max: 3 });
const bound = fc.constantFrom(-2, -1, 0, 0.5, 1, 2, 3);

/** Small JSON values for `const`, `enum`, `default` and the like. */
export const smallJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(null, true, false, 0, 1, -1, 2, 0.5, "", "a", "ab", "😀"),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.uniqueArray(fc.tuple(name, tie("value")), { maxLength: 2, selector: ([key]) => key }).map(fromEntries),
  ),
})).value;

/** Where a subschema is compiled, which decides the references it may hold. */
interface Scope {
  readonly draft: FuzzDraft;
  readonly depth: number;
  /** References to definitions that cannot lead back here in place. */
  readonly refs: readonly string[];
  /** Whether a keyword between the root and here moved to a child value, so `$ref: "#"` cannot loop in place. */
  readonly descended: boolean;
}

const MAX_DEPTH = 3;

/** A map of names (or patterns) to subschemas. */
function schemaMap(keys: readonly string[], sub: fc.Arbitrary<unknown>, maxKeys: number) {
  return fc.uniqueArray(fc.tuple(fc.constantFrom(...keys), sub), { maxLength: maxKeys, selector: ([key]) => key })
    .map(fromEntries);
}

function subschemas(sub: fc.Arbitrary<unknown>, minLength: number) {
  return fc.array(sub, { minLength, maxLength: 2 });
}

// Keywords whose values are data, in one group each so schemas mix them freely.
function dataGroups(draft: FuzzDraft): fc.Arbitrary<Record<string, unknown>>[] {
  const type = fc.oneof(
    fc.constantFrom(...TYPES),
    fc.uniqueArray(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 3 }),
  );
  return [
    fc.record({ type }),
    fc.record({ const: smallJson }),
    fc.record({ enum: fc.array(smallJson, { minLength: 1, maxLength: 3 }) }),
    fc.record({
      minimum: bound,
      maximum: bound,
      exclusiveMinimum: bound,
      exclusiveMaximum: bound,
      multipleOf: fc.constantFrom(1, 2, 3, 0.5, 0.25, 0.1, 0.3, 1.5, 0.01),
    }, { requiredKeys: [] }),
    fc.record({
      minLength: count,
      maxLength: count,
      pattern: fc.constantFrom(...Object.keys(STRING_PATTERNS)),
      format: fc.constantFrom(...FORMATS),
    }, { requiredKeys: [] }),
    fc.record({ minItems: count, maxItems: count, uniqueItems: fc.boolean() }, { requiredKeys: [] }),
    fc.record({ minProperties: count, maxProperties: count, required: names }, { requiredKeys: [] }),
    draft === "2020-12"
      ? fc.record({ dependentRequired: schemaMap(NAMES, names, 2) })
      : fc.record({ dependencies: schemaMap(NAMES, names, 2) }),
    // Annotations: they never change a verdict.
    fc.record({
      title: fc.constant("t"),
      description: fc.constant("d"),
      default: smallJson,
      examples: fc.array(smallJson, { maxLength: 2 }),
      $comment: fc.constant("c"),
      deprecated: fc.boolean(),
      readOnly: fc.boolean(),
      writeOnly: fc.boolean(),
      contentMediaType: fc.constant("application/json"),
      contentEncoding: fc.constant("base64"),
      ...(draft === "2020-12" ? { contentSchema: fc.constant({ type: "object", required: ["a"] }) } : {}),
    }, { requiredKeys: [] }),
  ];
}

// Keywords whose values are subschemas: `below` for a child value, `inPlace` for the same value.
function applicatorGroups(
  draft: FuzzDraft,
  below: fc.Arbitrary<unknown>,
  inPlace: fc.Arbitrary<unknown>,
): fc.Arbitrary<Record<string, unknown>>[] {
  const propertyNames = fc.oneof(
    fc.record({ pattern: fc.constantFrom(...Object.keys(NAME_PATTERNS)) }),
    fc.record({ maxLength: count }),
    fc.record({ enum: fc.uniqueArray(name, { minLength: 1, maxLength: 3 }) }),
    below,
  );
  const shared = [
    fc.record({
      properties: schemaMap(NAMES, below, 3),
      patternProperties: schemaMap(Object.keys(NAME_PATTERNS), below, 2),
      additionalProperties: below,
    }, { requiredKeys: [] }),
    fc.record({ propertyNames }),
    fc.record({ allOf: subschemas(inPlace, 1) }),
    fc.record({ anyOf: subschemas(inPlace, 1) }),
    fc.record({ oneOf: subschemas(inPlace, 1) }),
    fc.record({ not: inPlace }),
    fc.record({ if: inPlace, then: inPlace, else: inPlace }, { requiredKeys: ["if"] }),
  ];
  if (draft === "2020-12") {
    return [
      ...shared,
      fc.record({ prefixItems: subschemas(below, 0), items: below }, { requiredKeys: [] }),
      fc.record({ contains: below, minContains: count, maxContains: count }, { requiredKeys: ["contains"] }),
      fc.record({ dependentSchemas: schemaMap(NAMES, inPlace, 2) }),
      fc.record({ unevaluatedProperties: below }),
      fc.record({ unevaluatedItems: below }),
    ];
  }
  return [
    ...shared,
    fc.oneof(
      fc.record({ items: below }),
      fc.record({ items: subschemas(below, 0), additionalItems: below }, { requiredKeys: ["items"] }),
    ),
    fc.record({ contains: below }),
    fc.record({ dependencies: schemaMap(NAMES, fc.oneof(inPlace, names), 2) }),
    // Keywords of later drafts, which draft-07 does not define: they must change nothing.
    fc.record({
      prefixItems: subschemas(below, 1),
      minContains: count,
      maxContains: count,
      dependentRequired: schemaMap(NAMES, names, 2),
      dependentSchemas: schemaMap(NAMES, inPlace, 2),
      unevaluatedProperties: below,
      unevaluatedItems: below,
    }, { requiredKeys: [] }),
  ];
}

// The shapes the compiler reads in one fused part, and leaf schemas it checks as data.
function typedShapes(below: fc.Arbitrary<unknown>): fc.Arbitrary<Record<string, unknown>>[] {
  const declared = fc.uniqueArray(fc.tuple(name, below), { minLength: 1, maxLength: 3, selector: ([key]) => key });
  return [
    fc.record({ declared, required: names, closed: fc.boolean(), additional: fc.option(below) }).map(
      ({ declared, required, closed, additional }) => ({
        type: "object",
        properties: fromEntries(declared),
        required,
        ...(closed ? { additionalProperties: false } : additional === null ? {} : { additionalProperties: additional }),
      }),
    ),
    fc.record({ type: fc.constant("array"), items: below, minItems: count, maxItems: count }, {
      requiredKeys: ["type", "items"],
    }),
    fc.record({
      type: fc.constant("string"),
      minLength: count,
      maxLength: count,
      pattern: fc.constantFrom(...Object.keys(STRING_PATTERNS)),
    }, { requiredKeys: ["type"] }),
    fc.record({
      type: fc.constantFrom("integer", "number"),
      minimum: bound,
      maximum: bound,
      exclusiveMinimum: bound,
      exclusiveMaximum: bound,
    }, { requiredKeys: ["type"] }),
    fc.record({ type: fc.constantFrom("boolean", "null") }),
    fc.record({
      enum: fc.uniqueArray(fc.constantFrom(null, true, 0, 1, 2.5, "a", "b"), { minLength: 1, maxLength: 3 }),
    }),
  ];
}

/** Merges keyword groups into one schema; a later group's keyword wins. */
function merged(groups: fc.Arbitrary<Record<string, unknown>>[]): fc.Arbitrary<Record<string, unknown>> {
  return fc.array(fc.oneof(...groups), { minLength: 1, maxLength: 3 })
    .map((parts) => Object.assign({}, ...parts) as Record<string, unknown>);
}

const memo = new Map<string, fc.Arbitrary<unknown>>();

/** A subschema compiled at `scope`: a boolean or an object. */
function schemaAt(scope: Scope): fc.Arbitrary<unknown> {
  const key = JSON.stringify(scope);
  let found = memo.get(key);
  if (found === undefined) {
    found = fc.oneof(
      { arbitrary: fc.boolean(), weight: 1 },
      { arbitrary: objectSchemaAt(scope), weight: 6 },
    );
    memo.set(key, found);
  }
  return found;
}

function objectSchemaAt(scope: Scope): fc.Arbitrary<Record<string, unknown>> {
  const { draft, depth, refs, descended } = scope;
  const data = dataGroups(draft);
  if (depth >= MAX_DEPTH) return merged(data);
  // Lazy, so that building the arbitrary of one depth does not build every deeper one at once.
  const lazy = (next: Scope) => fc.constant(null).chain(() => schemaAt(next));
  const below = lazy({ draft, depth: depth + 1, refs, descended: true });
  const inPlace = lazy({ draft, depth: depth + 1, refs, descended });
  const targets = descended ? [...refs, "#"] : refs;
  const groups = [...data, ...applicatorGroups(draft, below, inPlace)];
  const options = [
    { arbitrary: merged(groups), weight: 5 },
    { arbitrary: fc.oneof(...typedShapes(below)), weight: 3 },
  ];
  if (targets.length > 0) {
    // A `$ref` alone, or with siblings (which draft-07 ignores and 2020-12 applies).
    const ref = fc.record({ $ref: fc.constantFrom(...targets) });
    options.push({
      arbitrary: fc.tuple(ref, fc.option(merged(groups))).map(([reference, siblings]) => ({
        ...siblings,
        ...reference,
      })),
      weight: 2,
    });
  }
  return fc.oneof(...options);
}

const SCHEMA_URIS: Readonly<Record<FuzzDraft, readonly (string | undefined)[]>> = {
  "2020-12": ["https://json-schema.org/draft/2020-12/schema", undefined],
  "7": ["http://json-schema.org/draft-07/schema#"],
};

/**
 * Root schemas of one draft. Two definitions may be referenced: `d0`, and
 * `d1` (anchored as `A1`), which may reference `d0`; neither references
 * itself or the root in place, so no reference loops on one value.
 */
export function rootSchema(draft: FuzzDraft): fc.Arbitrary<FuzzSchema> {
  const defsKeywords = draft === "7" ? ["definitions"] : ["$defs", "definitions"];
  return fc.tuple(fc.constantFrom(...SCHEMA_URIS[draft]), fc.constantFrom(...defsKeywords), fc.boolean()).chain(
    ([uri, defsKeyword, withDefs]) => {
      const d0 = `#/${defsKeyword}/d0`;
      const refs = withDefs ? [d0, `#/${defsKeyword}/d1`, `#${ANCHOR}`] : [];
      const at = (depth: number, refs: readonly string[]) => schemaAt({ draft, depth, refs, descended: false });
      const anchor = draft === "7" ? { $id: `#${ANCHOR}` } : { $anchor: ANCHOR };
      const defs = withDefs
        ? fc.tuple(at(1, []), at(2, [d0])).map(([first, second]) => ({
          [defsKeyword]: { d0: first, d1: { ...anchor, allOf: [second] } },
        }))
        : fc.constant({});
      return fc.tuple(objectSchemaAt({ draft, depth: 0, refs, descended: false }), defs).map(([body, definitions]) => ({
        draft,
        schema: { ...(uri === undefined ? {} : { $schema: uri }), ...body, ...definitions },
      }));
    },
  );
}
