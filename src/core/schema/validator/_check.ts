// The static check: walks a schema the way the compiler will, in the same
// order, and refuses what the compiler must not be given (a malformed
// keyword, an unresolvable `$ref`, a pattern the engine cannot express, an
// expansion over the budget) or does not implement. It builds nothing to
// validate with, so defining a tool costs a walk; the compiler, run on a
// schema that passed, refuses nothing.

import { isRecord } from "../../common/_is_record.ts";
import { appendPointer } from "../../common/_json_pointer.ts";
import { showValue } from "../../common/_show_value.ts";
import { SchemaRefusal } from "./refusal.ts";
import { type CompiledPattern, nativePatterns, type PatternEngine } from "./patterns.ts";
import { type Draft, UNSUPPORTED } from "./_keywords.ts";
import { jsonDepth } from "./_json_equal.ts";
import {
  dynamicCandidates,
  DynamicTargets,
  MAX_SCHEMA_DEPTH,
  type Registry,
  resolveReference,
  tooDeep,
} from "./_refs.ts";
import { ASSERTED_FORMATS, STANDARD_FORMATS } from "./_format_names.ts";

/** What the check needs besides the schema. */
export interface CheckOptions {
  readonly draft: Draft;
  readonly registry: Registry;
  readonly patterns: PatternEngine;
  readonly assertFormats: boolean;
  readonly maxNodes: number;
  /** Reads the draft a `$schema` value declares, or `undefined` for one not known. */
  readonly draftOf: (declared: string) => Draft | undefined;
}

// Validation recurses once per schema it nests into, references included:
// this bound keeps the stack well within the engine's limit.
const MAX_REFERENCE_DEPTH = 500;

/** Keywords whose subschemas apply to the value itself, not to a part of it. */
const IN_PLACE = new Set(["allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "dependencies"]);

/** The refusal for a keyword whose value is not what the keyword takes. */
function malformed(
  keyword: string,
  location: string,
  expected: string,
  value: unknown,
  pointer = `${location}/${keyword}`,
): SchemaRefusal {
  return new SchemaRefusal(
    "invalid",
    "malformed",
    keyword,
    pointer,
    `Cannot compile the schema as "${keyword}" at ${pointer} must be ${expected}: current value is ${showValue(value)}`,
  );
}

function isNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

/** A count: a non-negative integer (`2.0` included). */
function isCount(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0;
}

/** Whether a value is an array of distinct strings. */
function isNameList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((name) => typeof name === "string") &&
    new Set(value).size === value.length;
}

const TYPES = ["null", "boolean", "object", "array", "number", "string", "integer"];
const BOUNDS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];

/**
 * How many schemas a distinct pattern of an untrusted schema counts as in
 * the compiled-size budget: compiling one on the linear-time engine takes
 * tens of microseconds, and RE2 writes out each repetition a counted
 * quantifier asks for (`\p{L}{1,1000}` takes milliseconds). So 400, and 60
 * for each such repetition: the default budget holds 250 plain patterns
 * (about 12 ms of compiling), or one that repeats a thousand times.
 *
 * @param source The pattern.
 * @returns Its weight.
 */
export function untrustedPatternWeight(source: string): number {
  let repetitions = 0;
  // Read loosely (a literal `{3}` counts too): the weight errs high, never low. Only a code point's escape is left
  // out, `\u{2000}`: a `u` after an odd run of backslashes.
  for (const [, escape, low, high] of source.matchAll(/(\\+u)?\{(\d+)(?:,(\d*))?\}/g)) {
    if (escape !== undefined && escape.length % 2 === 0) continue;
    repetitions += Math.max(Number(low), Number(high || low));
  }
  return 400 + 60 * repetitions;
}

/** What the check found: whether the schema asserts a format, and its patterns as the engine compiled them. */
export interface CheckedSchema {
  /** Whether compiling the schema needs the format scanners. */
  readonly assertsFormats: boolean;
  /** Each distinct pattern, compiled once: the compiler takes them from here. */
  readonly patterns: ReadonlyMap<string, CompiledPattern>;
}

/**
 * Checks a schema and everything it reaches, as the compiler will compile
 * it, and measures its expansion.
 *
 * @param schema The schema: an object or a boolean, indexed in `options.registry`.
 * @param base Its base URI.
 * @param options Draft, registry, pattern engine, formats, the node budget.
 * @returns What compiling it needs.
 * @throws {SchemaRefusal} When the schema is refused.
 */
export function checkSchema(schema: unknown, base: string, options: CheckOptions): CheckedSchema {
  const checker = new Checker(options);
  checker.check(schema, base);
  return { assertsFormats: checker.assertsFormats, patterns: checker.patterns };
}

/** Walks schemas as the compiler does; one checker per schema. */
class Checker {
  readonly #options: CheckOptions;
  /** Each schema object checked, with its subschemas and `$ref` targets, as the compiler links them. */
  readonly #children = new Map<object, unknown[]>();
  /** Of those, the ones applied to the same value (`allOf`, `$ref`, ...), not to a part of it. */
  readonly #inPlace = new Map<object, unknown[]>();
  readonly #queue: [Record<string, unknown>, string, string][] = [];
  readonly #dynamicTargets = new DynamicTargets();
  /**
   * For each `$dynamicAnchor` name a dynamic reference uses, one node that stands for "that anchor, wherever the
   * scope finds it", whose children are every schema of that name: each reference links to it, so many references
   * to many anchors cost their sum, not their product.
   */
  readonly #dynamicAnchors = new Map<string, object>();
  #count = 0;
  /** Whether a format the validator asserts appears. */
  assertsFormats = false;
  /** Each distinct pattern, where it first appears; compiled by the engine once every cheaper check has passed. */
  readonly #sources = new Map<string, readonly [keyword: string, pointer: string]>();
  /** Each distinct pattern, compiled by the engine. */
  readonly patterns = new Map<string, CompiledPattern>();

  constructor(options: CheckOptions) {
    this.#options = options;
  }

  check(schema: unknown, base: string): void {
    this.#node(schema, this.#baseOf(schema, base), "", 0);
    do {
      while (this.#queue.length > 0) {
        const [object, nodeBase, location] = this.#queue.pop()!;
        this.#fill(object, nodeBase, location, 0);
      }
    } while (this.#dynamicTargets.release());
    this.#refuseLoops();
    const { size, depth } = this.#measure(schema, this.#options.maxNodes);
    if (size > this.#options.maxNodes) {
      throw new SchemaRefusal(
        "invalid",
        "budget",
        "$ref",
        "",
        `Cannot compile the schema as its references expand to more than ${this.#options.maxNodes} schemas`,
      );
    }
    if (depth > MAX_REFERENCE_DEPTH) {
      throw new SchemaRefusal(
        "invalid",
        "depth",
        "$ref",
        "",
        `Cannot compile the schema as its references nest deeper than ${MAX_REFERENCE_DEPTH} schemas`,
      );
    }
    // Last, so that a schema refused for its size compiles no pattern: an untrusted one's take milliseconds each.
    for (const [source, [keyword, pointer]] of this.#sources) this.#compile(source, keyword, pointer);
  }

  #baseOf(schema: unknown, base: string): string {
    return isRecord(schema) ? this.#options.registry.bases.get(schema) ?? base : base;
  }

  #node(schema: unknown, base: string, location: string, depth: number): void {
    if (schema === true || schema === false) return;
    if (!isRecord(schema)) {
      throw new SchemaRefusal(
        "invalid",
        "malformed",
        "",
        location,
        `Cannot compile the schema as the schema at ${
          location || "the root"
        } must be an object or a boolean: current value is ${JSON.stringify(schema)?.slice(0, 80)}`,
      );
    }
    if (this.#children.has(schema)) return;
    this.#children.set(schema, []);
    this.#fill(schema, this.#baseOf(schema, base), location, depth);
  }

  /** A `$ref` target: checked now if already seen, else queued. */
  #link(schema: unknown, base: string, location: string): void {
    if (!isRecord(schema)) return this.#node(schema, base, location, 0);
    if (this.#children.has(schema)) return;
    this.#children.set(schema, []);
    this.#queue.push([schema, this.#baseOf(schema, base), location]);
  }

  #fill(schema: Record<string, unknown>, base: string, location: string, depth: number): void {
    const { draft, maxNodes } = this.#options;
    if (++this.#count > maxNodes) {
      throw new SchemaRefusal(
        "invalid",
        "budget",
        "",
        location,
        `Cannot compile the schema as it has more than ${maxNodes} schemas`,
      );
    }
    if (depth > MAX_SCHEMA_DEPTH) throw tooDeep(location);
    this.#dynamicTargets.enter(base);
    this.#keywords(schema, location);
    const children = this.#children.get(schema)!;
    const inPlace: unknown[] = [];
    this.#inPlace.set(schema, inPlace);
    const child = (value: unknown, keyword: string) => {
      children.push(value);
      if (IN_PLACE.has(keyword.split("/", 1)[0])) inPlace.push(value);
      this.#node(value, base, `${location}/${keyword}`, depth + 1);
    };
    if (draft === "7" && "$ref" in schema) {
      // Draft-07: `$ref` alone applies; its siblings are ignored.
      this.#ref(schema, schema.$ref, base, location);
      return;
    }
    this.#values(schema, location);
    this.#arrays(schema, location, child);
    this.#objects(schema, location, child);
    if ("$ref" in schema) this.#ref(schema, schema.$ref, base, location);
    if (draft === "2020-12" && "$dynamicRef" in schema) {
      this.#ref(schema, schema.$dynamicRef, base, location, "$dynamicRef");
    }
    this.#logic(schema, location, child);
  }

  #keywords(schema: Record<string, unknown>, location: string): void {
    const { draft } = this.#options;
    for (const keyword in schema) {
      if (UNSUPPORTED[draft].has(keyword)) {
        throw new SchemaRefusal(
          "unsupported",
          "keyword",
          keyword,
          appendPointer(location, keyword),
          `Cannot compile the schema as "${keyword}" at ${appendPointer(location, keyword)} is not supported`,
        );
      }
    }
    if ("$schema" in schema) {
      const declared = schema.$schema;
      if (typeof declared !== "string") throw malformed("$schema", location, "a URI", declared);
      const declares = this.#options.draftOf(declared);
      // The caller may compile the root as another known draft; an embedded
      // resource of another draft, or a custom meta-schema, is not compiled.
      if (declares === undefined || (declares !== draft && location !== "")) {
        throw new SchemaRefusal(
          "unsupported",
          "draft",
          "$schema",
          `${location}/$schema`,
          `Cannot compile the schema as "$schema" at ${location}/$schema declares ${
            JSON.stringify(declared)
          }, not the draft ${draft} being compiled`,
        );
      }
    }
    if (draft === "2020-12") {
      for (const keyword of ["$anchor", "$dynamicAnchor"]) {
        const anchor = schema[keyword];
        if (anchor !== undefined && (typeof anchor !== "string" || !/^[A-Za-z_][-A-Za-z0-9._]*$/.test(anchor))) {
          throw malformed(keyword, location, "a plain name (a letter or _, then letters, digits, -, _ or .)", anchor);
        }
      }
      if (typeof schema.$id === "string" && /#./.test(schema.$id)) {
        throw malformed("$id", location, "a URI without a fragment", schema.$id);
      }
    }
    if ("$id" in schema && typeof schema.$id !== "string") throw malformed("$id", location, "a string", schema.$id);
  }

  #values(schema: Record<string, unknown>, location: string): void {
    if ("type" in schema) {
      const types = typeof schema.type === "string" ? [schema.type] : schema.type;
      if (!isNameList(types) || !types.every((name) => TYPES.includes(name))) {
        const expected = `one of ${TYPES.map((name) => `"${name}"`).join(", ")} or an array of them`;
        throw malformed("type", location, expected, schema.type);
      }
    }
    if ("const" in schema) comparable("const", location, schema.const);
    if ("enum" in schema) {
      if (!Array.isArray(schema.enum)) throw malformed("enum", location, "an array", schema.enum);
      comparable("enum", location, schema.enum);
    }
    for (const keyword of BOUNDS) {
      if (!(keyword in schema) || isNumber(schema[keyword])) continue;
      const bound = schema[keyword];
      throw malformed(
        keyword,
        location,
        typeof bound === "boolean" ? "a number (the boolean form is draft-04's)" : "a number",
        bound,
      );
    }
    if ("multipleOf" in schema && !(isNumber(schema.multipleOf) && schema.multipleOf > 0)) {
      throw malformed("multipleOf", location, "a number greater than 0", schema.multipleOf);
    }
    for (const keyword of ["minLength", "maxLength"]) counted(schema, keyword, location);
    if ("pattern" in schema) this.#pattern(schema.pattern, "pattern", `${location}/pattern`);
    if ("format" in schema) {
      const format = schema.format;
      if (typeof format !== "string") throw malformed("format", location, "a string", format);
      const { assertFormats } = this.#options;
      if (assertFormats && ASSERTED_FORMATS.has(format)) this.assertsFormats = true;
      else if (assertFormats && STANDARD_FORMATS.has(format)) {
        throw new SchemaRefusal(
          "unsupported",
          "format",
          "format",
          `${location}/format`,
          `Cannot compile the schema as the format "${format}" at ${location}/format is not asserted by this validator`,
        );
      }
    }
  }

  /** Checks the pattern at `pointer`, the value of `keyword` or one of its keys, and that the engine can run it. */
  #pattern(source: unknown, keyword: string, pointer: string): void {
    if (typeof source !== "string") throw malformed(keyword, "", "a string", source, pointer);
    if (this.#sources.has(source)) return;
    try {
      new RegExp(source, "u");
    } catch {
      try {
        new RegExp(source);
      } catch {
        throw malformed(keyword, "", "a regular expression (ECMA-262)", source, pointer);
      }
      // Valid only without the `u` flag JSON Schema reads patterns with
      // (an identity escape such as `\_`): another validator may accept it.
      throw new SchemaRefusal(
        "unsupported",
        "pattern",
        keyword,
        pointer,
        `Cannot compile the schema as the pattern ${
          JSON.stringify(source)
        } at ${pointer} is not valid with the "u" flag`,
      );
    }
    const { patterns, maxNodes } = this.#options;
    if (patterns !== nativePatterns && (this.#count += untrustedPatternWeight(source)) > maxNodes) {
      throw new SchemaRefusal(
        "invalid",
        "budget",
        keyword,
        pointer,
        `Cannot compile the schema as its schemas and patterns count more than ${maxNodes} at ${pointer}: an untrusted schema's pattern counts as 400 schemas, and 60 more for each repetition it asks for`,
      );
    }
    this.#sources.set(source, [keyword, pointer]);
  }

  /** Compiles a pattern with the engine, which refuses one it cannot run. */
  #compile(source: string, keyword: string, pointer: string): void {
    try {
      this.patterns.set(source, this.#options.patterns.compile(source));
    } catch (error) {
      throw new SchemaRefusal(
        "unsupported",
        "pattern",
        keyword,
        pointer,
        `Cannot compile the schema as the pattern ${JSON.stringify(source)} at ${pointer} is not supported: ${
          error instanceof Error ? error.message : String(error)
        }`,
      );
    }
  }

  #arrays(schema: Record<string, unknown>, location: string, child: (value: unknown, keyword: string) => void): void {
    const { draft } = this.#options;
    const prefixKeyword = draft === "7" ? "items" : "prefixItems";
    if (prefixKeyword in schema && (draft === "2020-12" || Array.isArray(schema.items))) {
      schemaList(schema, prefixKeyword, location, false).forEach((item, i) => child(item, `${prefixKeyword}/${i}`));
    }
    // Draft-07 ignores additionalItems unless items is an array.
    const restKeyword = draft === "7" ? (Array.isArray(schema.items) ? "additionalItems" : "items") : "items";
    for (const keyword of ["minItems", "maxItems"]) counted(schema, keyword, location);
    if (restKeyword in schema) child(schema[restKeyword], restKeyword);
    if ("uniqueItems" in schema && typeof schema.uniqueItems !== "boolean") {
      throw malformed("uniqueItems", location, "a boolean", schema.uniqueItems);
    }
    if ("contains" in schema) {
      if (draft === "2020-12") {
        for (const keyword of ["minContains", "maxContains"]) {
          const count = schema[keyword];
          if (count !== undefined && !isCount(count)) {
            throw malformed(keyword, location, "a non-negative integer", count);
          }
        }
      }
      child(schema.contains, "contains");
    }
    if (draft === "2020-12" && "unevaluatedItems" in schema) child(schema.unevaluatedItems, "unevaluatedItems");
  }

  #objects(schema: Record<string, unknown>, location: string, child: (value: unknown, keyword: string) => void): void {
    const { draft } = this.#options;
    if ("properties" in schema) {
      const map = schemaMap(schema, "properties", location);
      for (const name in map) child(map[name], appendPointer("properties", name));
    }
    if ("patternProperties" in schema) {
      const map = schemaMap(schema, "patternProperties", location);
      for (const source in map) {
        this.#pattern(source, "patternProperties", appendPointer(`${location}/patternProperties`, source));
        child(map[source], appendPointer("patternProperties", source));
      }
    }
    if ("additionalProperties" in schema) child(schema.additionalProperties, "additionalProperties");
    if ("required" in schema && !isNameList(schema.required)) {
      throw malformed("required", location, "an array of distinct strings", schema.required);
    }
    for (const keyword of ["minProperties", "maxProperties"]) counted(schema, keyword, location);
    if ("propertyNames" in schema) child(schema.propertyNames, "propertyNames");
    const dependencyKeywords = draft === "7"
      ? ["dependencies"]
      : ["dependentRequired", "dependentSchemas", "dependencies"];
    for (const keyword of dependencyKeywords) {
      if (!(keyword in schema)) continue;
      const map = schemaMap(schema, keyword, location);
      for (const name in map) {
        const value = map[name];
        if (keyword === "dependentRequired" || (keyword === "dependencies" && Array.isArray(value))) {
          if (!isNameList(value)) {
            throw malformed(keyword, location, `an object whose values are arrays of distinct strings`, map);
          }
        } else {
          child(value, appendPointer(keyword, name));
        }
      }
    }
    if (draft === "2020-12" && "unevaluatedProperties" in schema) {
      child(schema.unevaluatedProperties, "unevaluatedProperties");
    }
  }

  /** A reference of `schema`: its target is applied to the same value. */
  #ref(schema: object, reference: unknown, base: string, location: string, keyword = "$ref"): void {
    const pointer = `${location}/${keyword}`;
    if (typeof reference !== "string") throw malformed(keyword, location, "a string", reference);
    const { registry } = this.#options;
    const target = resolveReference(reference, base, registry);
    if (typeof target === "string") {
      throw new SchemaRefusal(
        target === "resource" ? "unsupported" : "invalid",
        "reference",
        keyword,
        pointer,
        target === "resource"
          ? `Cannot compile the schema as "${keyword}" at ${pointer} names ${
            JSON.stringify(reference)
          }, a document neither it nor its remotes hold`
          : `Cannot compile the schema as "${keyword}" at ${pointer} names ${
            JSON.stringify(reference)
          }, which it does not hold`,
      );
    }
    const targetLocation = isRecord(target.schema) ? registry.locations.get(target.schema) ?? reference : reference;
    const applies = (to: unknown) => {
      this.#children.get(schema)!.push(to);
      this.#inPlace.get(schema)!.push(to);
    };
    applies(target.schema);
    this.#link(target.schema, target.base, targetLocation);
    // A dynamic reference may land on any schema with a $dynamicAnchor of its name: each is checked as a target too.
    const dynamic = keyword === "$dynamicRef" ? dynamicCandidates(reference, base, registry) : undefined;
    if (dynamic !== undefined) applies(this.#dynamicAnchor(dynamic.name, dynamic.targets));
  }

  /** The node that stands for the `$dynamicAnchor` `name` wherever the dynamic scope finds it. */
  #dynamicAnchor(name: string, targets: ReadonlyMap<string, object>): object {
    const known = this.#dynamicAnchors.get(name);
    if (known !== undefined) return known;
    const node = {};
    this.#dynamicAnchors.set(name, node);
    const children: unknown[] = [];
    const inPlace: unknown[] = [];
    this.#children.set(node, children);
    this.#inPlace.set(node, inPlace);
    const { registry } = this.#options;
    for (const [resource, target] of targets) {
      this.#dynamicTargets.wait(resource, () => {
        children.push(target);
        inPlace.push(target);
        this.#link(target, resource, registry.locations.get(target) ?? `${resource}#${name}`);
      });
    }
    return node;
  }

  #logic(schema: Record<string, unknown>, location: string, child: (value: unknown, keyword: string) => void): void {
    for (const keyword of ["allOf", "anyOf", "oneOf"]) {
      if (keyword in schema) {
        schemaList(schema, keyword, location, true).forEach((item, i) => child(item, `${keyword}/${i}`));
      }
    }
    if ("not" in schema) child(schema.not, "not");
    if ("if" in schema) {
      if ("then" in schema) child(schema.then, "then");
      if ("else" in schema) child(schema.else, "else");
      child(schema.if, "if");
    }
  }

  /**
   * Refuses schemas that apply themselves to the same value again, through
   * references and in-place keywords only (`{ "$ref": "#" }`, two `allOf`s
   * naming each other): validating any value would never end.
   */
  #refuseLoops(): void {
    const done = new Set<unknown>();
    const open = new Set<unknown>();
    for (const start of this.#inPlace.keys()) {
      if (done.has(start)) continue;
      const stack: [unknown, number][] = [[start, 0]];
      open.add(start);
      while (stack.length > 0) {
        const top = stack[stack.length - 1];
        const next = (isRecord(top[0]) ? this.#inPlace.get(top[0]) : undefined) ?? [];
        if (top[1] === next.length) {
          open.delete(top[0]);
          done.add(top[0]);
          stack.pop();
          continue;
        }
        const target = next[top[1]++];
        if (open.has(target)) {
          // A dynamic anchor's node is no schema of its own: the schema that refers to it is named.
          const culprit = this.#options.registry.locations.get(target as object) ??
            this.#options.registry.locations.get(top[0] as object) ?? "";
          const at = culprit || "the root";
          throw new SchemaRefusal(
            "invalid",
            "budget",
            "$ref",
            culprit,
            `Cannot compile the schema as the schema at ${at} applies itself again to the same value, through references and in-place keywords only: validating any value would never end`,
          );
        }
        if (!done.has(target)) {
          open.add(target);
          stack.push([target, 0]);
        }
      }
    }
  }

  /**
   * The size the schema would have with every `$ref` inlined, counting a
   * reference back into itself once, and its deepest nesting; counted
   * without recursion and stopped past `cap`, so an exponential expansion
   * costs no more than `cap`.
   */
  #measure(root: unknown, cap: number): { size: number; depth: number } {
    const childrenOf = (node: unknown) => (isRecord(node) ? this.#children.get(node) : undefined) ?? [];
    const sizes = new Map<unknown, number>();
    const depths = new Map<unknown, number>();
    const open = new Set<unknown>([root]);
    const stack: [unknown, number][] = [[root, 0]];
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const [node, next] = top;
      const children = childrenOf(node);
      if (next < children.length) {
        top[1]++;
        const child = children[next];
        if (!sizes.has(child) && !open.has(child)) {
          open.add(child);
          stack.push([child, 0]);
        }
        continue;
      }
      let size = 1;
      let depth = 1;
      for (const child of children) {
        const closed = !open.has(child);
        size = Math.min(size + (closed ? sizes.get(child)! : 1), cap + 1);
        if (closed) depth = Math.max(depth, depths.get(child)! + 1);
      }
      sizes.set(node, size);
      depths.set(node, depth);
      open.delete(node);
      stack.pop();
    }
    return { size: sizes.get(root)!, depth: depths.get(root)! };
  }
}

/** Refuses a JSON value the schema compares values with that is too deep to compare safely. */
function comparable(keyword: string, location: string, value: unknown): void {
  if (jsonDepth(value, MAX_SCHEMA_DEPTH) > MAX_SCHEMA_DEPTH) {
    throw malformed(keyword, location, `at most ${MAX_SCHEMA_DEPTH} levels deep`, value);
  }
}

/** Refuses `keyword` when present and not a count. */
function counted(schema: Record<string, unknown>, keyword: string, location: string): void {
  if (keyword in schema && !isCount(schema[keyword])) {
    throw malformed(keyword, location, "a non-negative integer", schema[keyword]);
  }
}

function schemaList(schema: Record<string, unknown>, keyword: string, location: string, nonEmpty: boolean): unknown[] {
  const list = schema[keyword];
  if (!Array.isArray(list) || (nonEmpty && list.length === 0)) {
    throw malformed(keyword, location, nonEmpty ? "a non-empty array of schemas" : "an array of schemas", list);
  }
  return list;
}

function schemaMap(schema: Record<string, unknown>, keyword: string, location: string): Record<string, unknown> {
  const map = schema[keyword];
  if (!isRecord(map)) throw malformed(keyword, location, "an object", map);
  return map;
}
