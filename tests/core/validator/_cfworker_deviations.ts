// Where @cfworker/json-schema departs from the specification on schemas the
// differential fuzz generates. Each departure is named with its reason and
// pinned in cfworker_deviations_test.ts on cases the specification decides;
// the fuzz corrects for it exactly there and nowhere else.

/** One known departure of cfworker from the specification. */
export interface CfworkerDeviation {
  readonly name: string;
  readonly reason: string;
}

/** Keywords of drafts 2019-09 and 2020-12 that cfworker applies whatever the draft. */
export const LATER_KEYWORDS: readonly string[] = [
  "prefixItems",
  "minContains",
  "maxContains",
  "dependentRequired",
  "dependentSchemas",
  "unevaluatedProperties",
  "unevaluatedItems",
];

/** cfworker applies 2019-09 and 2020-12 keywords to a draft-07 schema, which does not define them. */
export const LATER_KEYWORDS_IN_DRAFT_07: CfworkerDeviation = {
  name: "later keywords in draft-07",
  reason: `cfworker applies ${LATER_KEYWORDS.join(", ")} under draft-07, whose unknown keywords are annotations ` +
    "(draft-07 validation, section 4.3.3): the fuzz gives cfworker the schema without them",
};

/**
 * cfworker indexes the subschemas of `dependencies` as if the map were a
 * schema, skipping an entry whose trigger is named like a keyword it holds
 * data in (`type`, `enum`, ...) or like a member of `Object.prototype`
 * (`constructor`, `toString`): a `$ref` inside such an entry is unresolved.
 */
export const UNINDEXED_DEPENDENCIES: CfworkerDeviation = {
  name: "unindexed dependencies",
  reason: "cfworker leaves a `dependencies` subschema whose trigger is named like a data keyword or an " +
    "Object.prototype member out of its index, so a $ref inside it throws as unresolved: the fuzz gives cfworker " +
    "such an entry as the equivalent `if: { type: object, required: [trigger] }, then: subschema` in an allOf",
};

// The keywords cfworker never looks into for subschemas (facts about cfworker 4.1).
const CFWORKER_DATA_KEYWORDS = new Set([
  "id",
  "$id",
  "$ref",
  "$schema",
  "$anchor",
  "$vocabulary",
  "$comment",
  "default",
  "enum",
  "const",
  "required",
  "dependentRequired",
  "type",
  "maximum",
  "minimum",
  "exclusiveMaximum",
  "exclusiveMinimum",
  "multipleOf",
  "maxLength",
  "minLength",
  "pattern",
  "format",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxProperties",
  "minProperties",
]);

/** Whether cfworker's index skips a `dependencies` entry with this trigger. */
export function isUnindexedTrigger(trigger: string): boolean {
  return CFWORKER_DATA_KEYWORDS.has(trigger) || trigger in Object.prototype;
}

/**
 * cfworker evaluates an in-place subschema with its parent's record of
 * evaluated properties and items instead of a record of its own.
 */
export const SHARED_ANNOTATIONS: CfworkerDeviation = {
  name: "shared annotations",
  reason: "cfworker lets an unevaluatedProperties or unevaluatedItems in an in-place subschema (then, else, " +
    "dependentSchemas, and allOf, anyOf, oneOf or $ref below those) see what its parent's other keywords evaluated, " +
    "where 2020-12 (core, section 11) scopes it to that subschema's own keywords: a disagreement is excused only " +
    "when such a keyword is present, and the schema without it must still agree",
};

type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The schema as cfworker should see it: under draft-07, without the
 * later-draft keywords (cfworker would apply them); in any draft, each
 * `dependencies` entry cfworker leaves unindexed rewritten as the
 * equivalent `if`/`then`. A copy; `schema` is not changed.
 *
 * @param schema The schema.
 * @param draft The draft it is validated as.
 * @returns The copy for cfworker.
 */
export function oracleView(schema: unknown, draft: "2020-12" | "7"): unknown {
  const copy = structuredClone(schema);
  forEachSubschema(copy, (node) => {
    if (draft === "7") { for (const keyword of LATER_KEYWORDS) delete node[keyword]; }
    const dependencies = node.dependencies;
    if (!isSchema(dependencies)) return;
    for (const [trigger, dependent] of Object.entries(dependencies)) {
      if (Array.isArray(dependent) || !isUnindexedTrigger(trigger)) continue;
      delete dependencies[trigger];
      const condition = { type: "object", required: [trigger] };
      node.allOf = [...((node.allOf ?? []) as unknown[]), { if: condition, then: dependent }];
    }
  });
  return copy;
}

// Draft-07 subschema keywords and 2020-12's, so the walk reaches every schema either generator makes.
const SINGLE = [
  "additionalProperties",
  "propertyNames",
  "items",
  "additionalItems",
  "contains",
  "not",
  "if",
  "then",
  "else",
  "unevaluatedProperties",
  "unevaluatedItems",
];
const LISTS = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
const MAPS = ["properties", "patternProperties", "dependentSchemas", "dependencies", "$defs", "definitions"];

function forEachSubschema(schema: unknown, visit: (node: Schema) => void): void {
  if (!isSchema(schema)) return;
  visit(schema);
  for (const keyword of SINGLE) forEachSubschema(schema[keyword], visit);
  for (const keyword of LISTS) {
    const list = schema[keyword];
    if (Array.isArray(list)) { for (const item of list) forEachSubschema(item, visit); }
  }
  for (const keyword of MAPS) {
    const map = schema[keyword];
    if (isSchema(map)) { for (const item of Object.values(map)) forEachSubschema(item, visit); }
  }
}

/** The schema a local `$ref` names (a JSON Pointer, or `#A1` for the anchored definition). */
function target(root: Schema, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) {
    const defs = (root.$defs ?? root.definitions) as Schema | undefined;
    return defs?.d1;
  }
  let node: unknown = root;
  for (const token of ref.slice(2).split("/")) node = isSchema(node) ? node[token] : undefined;
  return node;
}

/**
 * Finds, in a 2020-12 schema, the subschemas holding an unevaluated keyword
 * that cfworker evaluates with annotations leaking in from outside them,
 * following cfworker's order: `$ref` first, then `allOf`, `anyOf`, `oneOf`
 * (their branches see what reached their schema and what `$ref` evaluated),
 * then `if`, `then` and `else`, then `dependentSchemas` (these see the
 * annotations gathered so far).
 * `if`, `not` and every keyword on a child value start from nothing.
 */
function leakingScopes(root: Schema): Set<Schema> {
  const found = new Set<Schema>();
  const seen = new Set<string>();
  const ids = new Map<Schema, number>();
  const walk = (schema: unknown, leaks: boolean) => {
    if (!isSchema(schema)) return;
    if (!ids.has(schema)) ids.set(schema, ids.size);
    const key = `${ids.get(schema)}:${leaks}`;
    if (seen.has(key)) return;
    seen.add(key);
    if (leaks && ("unevaluatedProperties" in schema || "unevaluatedItems" in schema)) found.add(schema);
    if (typeof schema.$ref === "string") walk(target(root, schema.$ref), leaks);
    const referred = leaks || typeof schema.$ref === "string";
    const branches = ["allOf", "anyOf", "oneOf"].flatMap((keyword) => (schema[keyword] ?? []) as unknown[]);
    for (const branch of branches) walk(branch, referred);
    const gathered = referred || branches.length > 0 || "if" in schema;
    walk(schema.if, false);
    walk(schema.then, gathered);
    walk(schema.else, gathered);
    const dependents = Object.values((schema.dependentSchemas ?? {}) as Schema);
    const before = gathered || "then" in schema || "else" in schema || dependents.length > 1;
    for (const dependent of dependents) walk(dependent, before);
    walk(schema.not, false);
    for (const keyword of SINGLE) if (!["not", "if", "then", "else"].includes(keyword)) walk(schema[keyword], false);
    for (const keyword of ["prefixItems", "items"]) {
      const list = schema[keyword];
      if (Array.isArray(list)) { for (const item of list) walk(item, false); }
    }
    for (const keyword of ["properties", "patternProperties"]) {
      for (const item of Object.values((schema[keyword] ?? {}) as Schema)) walk(item, false);
    }
  };
  walk(root, false);
  return found;
}

/**
 * The schema without the unevaluated keywords {@linkcode SHARED_ANNOTATIONS}
 * concerns, and how many were removed. A copy; `schema` is not changed.
 *
 * @param schema A 2020-12 schema.
 * @returns The copy and the count removed (0: the deviation does not apply).
 */
export function withoutSharedUnevaluated(schema: unknown): { schema: unknown; removed: number } {
  const copy = structuredClone(schema);
  if (!isSchema(copy)) return { schema: copy, removed: 0 };
  let removed = 0;
  for (const node of leakingScopes(copy)) {
    for (const keyword of ["unevaluatedProperties", "unevaluatedItems"]) {
      if (keyword in node) {
        delete node[keyword];
        removed++;
      }
    }
  }
  return { schema: copy, removed };
}
