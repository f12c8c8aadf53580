// The compiler: walks a schema that passed the static check (`_check.ts`)
// once and builds its tree of closures; it refuses nothing. `$ref` targets
// are linked, not inlined, so recursion works and each target compiles
// once; they are compiled from a queue, so a long chain of references does
// not deepen the stack.

import { isRecord } from "../../common/_is_record.ts";
import { appendPointer } from "../../common/_json_pointer.ts";
import { type CompiledPattern, DEFAULT_PATTERN_COST, type PatternCost, type PatternEngine } from "./patterns.ts";
import { type Evaluated, mergeEvaluated, newEvaluated } from "./_evaluated.ts";
import type { Draft } from "./_keywords.ts";
import { allOf as allChecks, type Check, type Node, type Part, push, type Report, type Sink } from "./_node.ts";
import { charge, type Runtime } from "./_runtime.ts";
import {
  boundPart,
  constPart,
  contentPart,
  countPart,
  dependentRequiredPart,
  enumPart,
  formatPart,
  isInherited,
  lengthPart,
  multipleOfPart,
  requiredPart,
  typePart,
  uniqueItemsPart,
} from "./_parts.ts";
import { dynamicCandidates, DynamicTargets, type Registry, resolveReference, type Target } from "./_refs.ts";
import type { FormatScanners } from "./_format_names.ts";
import { leafCheck, matchesLeaf, readLeaf } from "./_leaf.ts";

/** What the compiler needs besides the schema. */
export interface CompilerOptions {
  readonly draft: Draft;
  readonly registry: Registry;
  readonly patterns: PatternEngine;
  /** The schema's patterns as the check compiled them: each is compiled once. */
  readonly compiledPatterns: ReadonlyMap<string, CompiledPattern>;
  readonly assertFormats: boolean;
  /** The format scanners, when the schema asserts a format. */
  readonly scanners: FormatScanners | undefined;
  readonly runtime: Runtime;
}

const TRUE_NODE: Node = { check: () => true, report: () => {}, ready: true, children: [], leaf: undefined };
const FALSE_NODE: Node = {
  check: () => false,
  report: (_value, path, sink) => push(sink, path, "false", "No value is allowed here."),
  ready: true,
  children: [],
  leaf: undefined,
};

function isContainer(value: unknown): boolean {
  return typeof value === "object" && value !== null;
}

/** Whether an engine's cost of a test can be charged: finite, not negative. */
function chargeable(cost: PatternCost | undefined): cost is PatternCost {
  return cost !== undefined && [cost.perCharacter, cost.fixed].every((steps) => Number.isFinite(steps) && steps >= 0);
}

/** The check of a node, or one that forwards to it until it is compiled. */
function checkOf(node: Node): Check {
  return node.ready ? node.check : (value, ev) => node.check(value, ev);
}

/** What the keywords on scalars tell a leaf: the compiled `pattern`, to test inline, and whether content is asserted. */
interface ScalarParts {
  readonly pattern: CompiledPattern | undefined;
  readonly content: boolean;
}

/** Compiles schemas into nodes; one compiler per validator. */
export class Compiler {
  readonly #options: CompilerOptions;
  readonly #nodes = new Map<object, Node>();
  readonly #queue: [Node, Record<string, unknown>, string, string][] = [];
  /** Whether a `$dynamicRef` is compiled: only then do schema resources keep the dynamic scope. */
  readonly #dynamic: boolean;
  readonly #dynamicTargets = new DynamicTargets();
  /** For each `$dynamicAnchor` name a dynamic reference uses, its schemas by resource, shared by every such reference. */
  readonly #dynamicAnchors = new Map<string, Map<string, Part>>();

  constructor(options: CompilerOptions) {
    this.#options = options;
    this.#dynamic = options.draft === "2020-12" &&
      [...options.registry.bases.keys()].some((schema) => "$dynamicRef" in schema);
  }

  /** Compiles the root schema and everything it reaches. */
  compile(schema: unknown, base: string, location: string): Node {
    const root = this.#node(schema, base, location);
    do {
      while (this.#queue.length > 0) {
        const [node, object, nodeBase, nodeLocation] = this.#queue.pop()!;
        this.#fill(node, object, nodeBase, nodeLocation);
      }
    } while (this.#dynamicTargets.release());
    return root;
  }

  #node(schema: unknown, base: string, location: string): Node {
    if (schema === true) return TRUE_NODE;
    if (schema === false) return FALSE_NODE;
    const object = schema as Record<string, unknown>;
    const known = this.#nodes.get(object);
    if (known !== undefined) return known;
    const node: Node = { check: () => false, report: () => {}, ready: false, children: [], leaf: undefined };
    this.#nodes.set(object, node);
    this.#fill(node, object, this.#options.registry.bases.get(object) ?? base, location);
    return node;
  }

  /** A `$ref` target: compiled now if known, else queued. */
  #link(schema: unknown, base: string, location: string): Node {
    if (!isRecord(schema)) return this.#node(schema, base, location);
    const known = this.#nodes.get(schema);
    if (known !== undefined) return known;
    const node: Node = { check: () => false, report: () => {}, ready: false, children: [], leaf: undefined };
    this.#nodes.set(schema, node);
    this.#queue.push([node, schema, this.#options.registry.bases.get(schema) ?? base, location]);
    return node;
  }

  #fill(node: Node, schema: Record<string, unknown>, base: string, location: string): void {
    const { draft, runtime } = this.#options;
    this.#dynamicTargets.enter(base);
    const child = (value: unknown, keyword: string) => {
      const compiled = this.#node(value, base, `${location}/${keyword}`);
      node.children.push(compiled);
      return compiled;
    };
    const parts: Part[] = [];
    const tail: Part[] = [];
    let scalars: ScalarParts = { pattern: undefined, content: false };
    if (draft === "7" && "$ref" in schema) {
      // Draft-07: `$ref` alone applies; its siblings are ignored.
      parts.push(this.#refPart(node, schema.$ref as string, base));
    } else {
      scalars = this.#valueParts(schema, parts);
      this.#arrayParts(schema, parts, tail, child);
      this.#objectParts(schema, parts, tail, child);
      if ("$ref" in schema) parts.push(this.#refPart(node, schema.$ref as string, base));
      if ("$dynamicRef" in schema) parts.push(this.#dynamicRefPart(node, schema.$dynamicRef as string, base));
      this.#logicParts(schema, parts, child);
    }
    assemble(node, parts, tail, runtime, "unevaluatedProperties" in schema, "unevaluatedItems" in schema);
    // A leaf cannot multiply the work, so it skips the step count as well. Asserted content is not read as a leaf.
    const leaf = node.children.length === 0 && !scalars.content
      ? readLeaf(schema, !this.#options.assertFormats, scalars.pattern, runtime)
      : undefined;
    if (leaf !== undefined) {
      node.leaf = leaf;
      node.check = leafCheck(leaf);
    } else if (this.#dynamic && this.#options.registry.resources.get(base) === schema) {
      // An embedded resource, or the root: it is in the dynamic scope while it is evaluated.
      Object.assign(node, inResource(node, base, runtime.scope));
    }
  }

  /**
   * Compiles a pattern whose every test is first charged to the step budget, by the length of the text: many
   * patterns on long strings end a validation over budget, as many schema visits do, instead of blocking.
   */
  #pattern(source: string): CompiledPattern {
    const compiled = this.#options.compiledPatterns.get(source) ?? this.#options.patterns.compile(source);
    const { perCharacter, fixed } = chargeable(compiled.cost) ? compiled.cost : DEFAULT_PATTERN_COST;
    const { runtime } = this.#options;
    return {
      test: (text) => {
        charge(runtime, perCharacter * text.length + fixed);
        return compiled.test(text);
      },
    };
  }

  /** Adds the parts of the keywords on scalars; says what a leaf needs to know of them. */
  #valueParts(schema: Record<string, unknown>, parts: Part[]): ScalarParts {
    // A typed object or array is checked with its type in one part, below.
    if ("type" in schema && !isFusedObject(schema) && !isFusedArray(schema, this.#options.draft)) {
      parts.push(typePart(schema.type as string | string[]));
    }
    const { runtime } = this.#options;
    if ("const" in schema) parts.push(constPart(schema.const, runtime));
    if ("enum" in schema) parts.push(enumPart(schema.enum as unknown[], runtime));
    for (const keyword of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]) {
      if (keyword in schema) parts.push(boundPart(keyword, schema[keyword] as number));
    }
    if ("multipleOf" in schema) parts.push(multipleOfPart(schema.multipleOf as number));
    for (const keyword of ["minLength", "maxLength"]) {
      if (keyword in schema) parts.push(lengthPart(keyword, schema[keyword] as number, runtime));
    }
    let pattern: CompiledPattern | undefined;
    if ("pattern" in schema) {
      const source = schema.pattern as string;
      const compiled = pattern = this.#pattern(source);
      parts.push({
        check: (value) => typeof value !== "string" || compiled.test(value),
        report: (_value, path, sink) =>
          push(sink, path, "pattern", `Expected a string matching the pattern ${JSON.stringify(source)}.`),
      });
    }
    const { assertFormats, scanners } = this.#options;
    const format = schema.format as string;
    if (assertFormats && scanners !== undefined && Object.hasOwn(scanners, format)) {
      parts.push(formatPart(format, scanners[format], runtime));
    }
    const base64 = schema.contentEncoding === "base64";
    const json = schema.contentMediaType === "application/json";
    const content = assertFormats && this.#options.draft === "7" && (base64 || json);
    if (content) parts.push(contentPart(base64, json, runtime));
    return { pattern, content };
  }

  #arrayParts(
    schema: Record<string, unknown>,
    parts: Part[],
    tail: Part[],
    child: (value: unknown, keyword: string) => Node,
  ): void {
    const { draft, runtime } = this.#options;
    let tuple = 0;
    const prefixKeyword = draft === "7" ? "items" : "prefixItems";
    if (prefixKeyword in schema && (draft === "2020-12" || Array.isArray(schema.items))) {
      const nodes = (schema[prefixKeyword] as unknown[]).map((item, i) => child(item, `${prefixKeyword}/${i}`));
      parts.push(tuplePart(prefixKeyword, nodes, runtime));
      tuple = nodes.length;
    }
    // Draft-07 ignores additionalItems unless items is an array.
    const restKeyword = draft === "7" ? (Array.isArray(schema.items) ? "additionalItems" : "items") : "items";
    const counts = ["minItems", "maxItems"].filter((keyword) => keyword in schema)
      .map((keyword) => countPart(keyword, schema[keyword] as number, runtime));
    if (isFusedArray(schema, draft)) {
      const bound = (keyword: string, fallback: number) => (schema[keyword] ?? fallback) as number;
      parts.push(arrayPart(
        child(schema.items, "items"),
        bound("minItems", 0),
        bound("maxItems", Infinity),
        typePart("array").report,
        counts,
        runtime,
      ));
    } else {
      if (restKeyword in schema) {
        parts.push(restPart(restKeyword, tuple, child(schema[restKeyword], restKeyword), runtime));
      }
      for (const part of counts) parts.push(part);
    }
    const unique = "uniqueItems" in schema ? uniqueItemsPart(schema.uniqueItems as boolean, runtime) : undefined;
    if (unique) parts.push(unique);
    if ("contains" in schema) {
      const min = draft === "2020-12" ? (schema.minContains ?? 1) as number : 1;
      const max = draft === "2020-12" ? (schema.maxContains ?? Infinity) as number : Infinity;
      parts.push(containsPart(child(schema.contains, "contains"), min, max, runtime));
    }
    if (draft === "2020-12" && "unevaluatedItems" in schema) {
      tail.push(unevaluatedItemsPart(child(schema.unevaluatedItems, "unevaluatedItems"), runtime));
    }
  }

  #objectParts(
    schema: Record<string, unknown>,
    parts: Part[],
    tail: Part[],
    child: (value: unknown, keyword: string) => Node,
  ): void {
    const { draft, runtime } = this.#options;
    const names: string[] = [];
    const nodes: Node[] = [];
    if ("properties" in schema) {
      const map = schema.properties as Record<string, unknown>;
      for (const name in map) {
        names.push(name);
        nodes.push(child(map[name], appendPointer("properties", name)));
      }
    }
    const patterns: CompiledPattern[] = [];
    const patternNodes: Node[] = [];
    if ("patternProperties" in schema) {
      const map = schema.patternProperties as Record<string, unknown>;
      for (const source in map) {
        patterns.push(this.#pattern(source));
        patternNodes.push(child(map[source], appendPointer("patternProperties", source)));
      }
    }
    const additional = "additionalProperties" in schema
      ? child(schema.additionalProperties, "additionalProperties")
      : undefined;
    const required = (schema.required ?? []) as string[];
    if (isFusedObject(schema)) {
      // Required properties that are declared are checked as the properties are read.
      const declared = new Set(names);
      const typeReport = typePart("object").report;
      parts.push(
        objectPart(names, nodes, required.filter((name) => declared.has(name)), additional, typeReport, runtime),
      );
      const undeclared = requiredPart(required.filter((name) => !declared.has(name)), runtime);
      if (undeclared) parts.push(undeclared);
    } else {
      if (names.length > 0 || patterns.length > 0 || additional !== undefined) {
        parts.push(propertiesPart(names, nodes, patterns, patternNodes, additional, runtime));
      }
      const all = requiredPart(required, runtime);
      if (all) parts.push(all);
    }
    for (const keyword of ["minProperties", "maxProperties"]) {
      if (keyword in schema) parts.push(countPart(keyword, schema[keyword] as number, runtime));
    }
    if ("propertyNames" in schema) parts.push(propertyNamesPart(child(schema.propertyNames, "propertyNames"), runtime));
    const dependencyKeywords = draft === "7"
      ? ["dependencies"]
      : ["dependentRequired", "dependentSchemas", "dependencies"];
    for (const keyword of dependencyKeywords) {
      if (!(keyword in schema)) continue;
      const map = schema[keyword] as Record<string, unknown>;
      const lists: Record<string, string[]> = {};
      const triggers: string[] = [];
      const schemas: Node[] = [];
      for (const name in map) {
        const value = map[name];
        if (keyword === "dependentRequired" || (keyword === "dependencies" && Array.isArray(value))) {
          lists[name] = value as string[];
        } else {
          triggers.push(name);
          schemas.push(child(value, appendPointer(keyword, name)));
        }
      }
      const required = dependentRequiredPart(keyword, lists, runtime);
      if (required) parts.push(required);
      if (triggers.length > 0) parts.push(dependentSchemasPart(triggers, schemas, runtime));
    }
    if (draft === "2020-12" && "unevaluatedProperties" in schema) {
      tail.push(unevaluatedPropertiesPart(child(schema.unevaluatedProperties, "unevaluatedProperties"), runtime));
    }
  }

  /** The node a reference names, linked as a child of `node`. */
  #refPart(node: Node, reference: string, base: string): Part {
    const { registry, runtime } = this.#options;
    const target = resolveReference(reference, base, registry) as Target;
    const targetLocation = isRecord(target.schema) ? registry.locations.get(target.schema) ?? reference : reference;
    const linked = this.#link(target.schema, target.base, targetLocation);
    node.children.push(linked);
    const part = linkedPart(linked);
    // A reference into another resource takes that resource into the dynamic scope, even past its root.
    return this.#dynamic && target.base !== base ? inResource(part, target.base, runtime.scope) : part;
  }

  /**
   * The schemas of the `$dynamicAnchor` `name`, by resource: filled as each one's resource is compiled, since a
   * resource never compiled is never in the scope.
   */
  #dynamicAnchor(name: string, targets: ReadonlyMap<string, object>): ReadonlyMap<string, Part> {
    const known = this.#dynamicAnchors.get(name);
    if (known !== undefined) return known;
    const candidates = new Map<string, Part>();
    this.#dynamicAnchors.set(name, candidates);
    const { registry, runtime } = this.#options;
    for (const [resource, schema] of targets) {
      this.#dynamicTargets.wait(resource, () => {
        const linked = this.#link(schema, resource, registry.locations.get(schema) ?? `${resource}#${name}`);
        candidates.set(resource, inResource(linkedPart(linked), resource, runtime.scope));
      });
    }
    return candidates;
  }

  /**
   * A `$dynamicRef`: a `$ref` unless its target is a `$dynamicAnchor` of the fragment's name; then the
   * `$dynamicAnchor` of that name in the outermost schema resource of the dynamic scope that has one.
   */
  #dynamicRefPart(node: Node, reference: string, base: string): Part {
    const { registry, runtime } = this.#options;
    const { scope } = runtime;
    // Where no anchor in the scope redirects it, it is the `$ref` it reads as.
    const fallback = this.#refPart(node, reference, base);
    const dynamic = dynamicCandidates(reference, base, registry);
    if (dynamic === undefined) return fallback;
    const candidates = this.#dynamicAnchor(dynamic.name, dynamic.targets);
    const resolved = (): Part => {
      charge(runtime, scope.length);
      for (let i = 0; i < scope.length; i++) {
        const found = candidates.get(scope[i]);
        if (found !== undefined) return found;
      }
      return fallback;
    };
    return {
      check: (value, ev) => resolved().check(value, ev),
      report: (value, path, sink, ev) => resolved().report(value, path, sink, ev),
    };
  }

  #logicParts(
    schema: Record<string, unknown>,
    parts: Part[],
    child: (value: unknown, keyword: string) => Node,
  ): void {
    for (const keyword of ["allOf", "anyOf", "oneOf"] as const) {
      if (!(keyword in schema)) continue;
      const nodes = (schema[keyword] as unknown[]).map((item, i) => child(item, `${keyword}/${i}`));
      parts.push(keyword === "allOf" ? allOfPart(nodes) : keyword === "anyOf" ? anyOfPart(nodes) : oneOfPart(nodes));
    }
    if ("not" in schema) parts.push(notPart(child(schema.not, "not")));
    if ("if" in schema) {
      const then = "then" in schema ? child(schema.then, "then") : undefined;
      const otherwise = "else" in schema ? child(schema.else, "else") : undefined;
      parts.push(ifPart(child(schema.if, "if"), then, otherwise));
    }
  }
}

/** Builds a node's check and report from its parts, with the step count and annotation scope. */
function assemble(
  node: Node,
  parts: Part[],
  tail: Part[],
  runtime: Runtime,
  marksProperties: boolean,
  marksItems: boolean,
): void {
  const body = allChecks(parts.map((part) => part.check));
  const step = () => charge(runtime, 1);
  if (tail.length === 0) {
    node.check = (value, ev) => {
      charge(runtime, 1);
      return body(value, ev);
    };
  } else {
    const rest = allChecks(tail.map((part) => part.check));
    node.check = (value, ev) => {
      step();
      if (!isContainer(value)) return body(value, ev);
      const own = newEvaluated();
      if (!body(value, own) || !rest(value, own)) return false;
      if (ev !== undefined) {
        mergeEvaluated(ev, own);
        if (marksProperties) ev.allProps = true;
        if (marksItems) ev.items = Infinity;
      }
      return true;
    };
  }
  const all = tail.length === 0 ? parts : [...parts, ...tail];
  if (parts.length === 1 && tail.length === 0) {
    // A node is reported only on a value its check refused: with one part, that part refused it, unasked again.
    // (A part that reads annotations, `unevaluated*`, reports against the node's own; it takes the path below.)
    const only = parts[0];
    node.report = (value, path, sink, ev) => {
      step();
      only.report(value, path, sink, ev);
    };
    node.ready = true;
    return;
  }
  node.report = (value, path, sink, ev) => {
    step();
    const own = tail.length > 0 && isContainer(value) ? newEvaluated() : ev;
    for (let i = 0; i < all.length && sink.out.length < sink.max; i++) {
      if (!all[i].check(value, own)) all[i].report(value, path, sink, own);
    }
  };
  node.ready = true;
}

/** A part that hands the value to a linked node, which may be compiled later (a recursive reference). */
function linkedPart(linked: Node): Part {
  return {
    check: (value, ev) => linked.check(value, ev),
    report: (value, path, sink, ev) => linked.report(value, path, sink, ev),
  };
}

/** A part that keeps the dynamic scope: the schema resource `uri` is in it while the part checks or reports a value. */
function inResource(part: Part, uri: string, scope: string[]): Part {
  const { check, report } = part;
  return {
    check: (value, ev) => {
      scope.push(uri);
      const verdict = check(value, ev);
      scope.pop();
      return verdict;
    },
    report: (value, path, sink, ev) => {
      scope.push(uri);
      report(value, path, sink, ev);
      scope.pop();
    },
  };
}

/**
 * Whether a diagnostic is already at `pointer` or below it. A subschema that failed gives no annotations, so a
 * property it declared looks unevaluated to `unevaluatedProperties`; said to be "not allowed" beside what is really
 * wrong inside it, a model would drop a property the schema wants. The value is refused either way.
 */
function diagnosedWithin(sink: Sink, pointer: string): boolean {
  for (const { path } of sink.out) {
    if (path === pointer || (path.startsWith(pointer) && path.charCodeAt(pointer.length) === 0x2f)) return true;
  }
  return false;
}

function notAllowed(sink: Sink, path: string, keyword: string, message: string, node: Node, value: unknown): void {
  // A false subschema says why plainly; anything else reports its own failures.
  if (node.check === FALSE_NODE.check) push(sink, path, keyword, message);
  else node.report(value, path, sink, undefined);
}

function tuplePart(keyword: string, nodes: Node[], runtime: Runtime): Part {
  const checks = nodes.map(checkOf);
  return {
    check: (value, ev) => {
      if (!Array.isArray(value)) return true;
      const end = Math.min(value.length, checks.length);
      charge(runtime, end);
      for (let i = 0; i < end; i++) if (!checks[i](value[i], undefined)) return false;
      if (ev !== undefined && end > ev.items) ev.items = end;
      return true;
    },
    report: (value, path, sink) => {
      const items = value as unknown[];
      for (let i = 0; i < Math.min(items.length, nodes.length); i++) {
        if (!nodes[i].check(items[i], undefined)) {
          notAllowed(sink, `${path}/${i}`, keyword, "This item is not allowed.", nodes[i], items[i]);
        }
      }
    },
  };
}

/** Whether a schema's array keywords compile to one {@linkcode arrayPart}: `type: "array"` and a single `items` schema. */
function isFusedArray(schema: Record<string, unknown>, draft: Draft): boolean {
  return schema.type === "array" && (isRecord(schema.items) || typeof schema.items === "boolean") &&
    !(draft === "2020-12" && "prefixItems" in schema);
}

/** `type: "array"`, `items` (one schema for every item), `minItems` and `maxItems` in one pass. */
function arrayPart(
  node: Node,
  min: number,
  max: number,
  typeReport: Report,
  counts: Part[],
  runtime: Runtime,
): Part {
  const check = checkOf(node);
  const leaf = node.leaf;
  const items = restPart("items", 0, node, runtime);
  return {
    check: (value, ev) => {
      if (!Array.isArray(value) || value.length < min || value.length > max) return false;
      charge(runtime, value.length);
      if (leaf !== undefined) {
        for (let i = 0; i < value.length; i++) if (!matchesLeaf(leaf, value[i])) return false;
      } else {
        for (let i = 0; i < value.length; i++) if (!check(value[i], undefined)) return false;
      }
      if (ev !== undefined) ev.items = Infinity;
      return true;
    },
    report: (value, path, sink, ev) => {
      if (!Array.isArray(value)) return typeReport(value, path, sink, ev);
      for (const count of counts) if (!count.check(value, ev)) count.report(value, path, sink, ev);
      items.report(value, path, sink, ev);
    },
  };
}

function restPart(keyword: string, start: number, node: Node, runtime: Runtime): Part {
  const check = checkOf(node);
  return {
    check: node === FALSE_NODE ? (value) => !Array.isArray(value) || value.length <= start : (value, ev) => {
      if (!Array.isArray(value)) return true;
      charge(runtime, value.length);
      for (let i = start; i < value.length; i++) if (!check(value[i], undefined)) return false;
      if (ev !== undefined) ev.items = Infinity;
      return true;
    },
    report: (value, path, sink) => {
      const items = value as unknown[];
      charge(runtime, items.length);
      for (let i = start; i < items.length; i++) {
        if (!node.check(items[i], undefined)) {
          notAllowed(sink, `${path}/${i}`, keyword, "This item is not allowed.", node, items[i]);
        }
      }
    },
  };
}

function containsPart(node: Node, min: number, max: number, runtime: Runtime): Part {
  const check = checkOf(node);
  const count = (items: unknown[], ev: Evaluated | undefined): number => {
    charge(runtime, items.length);
    let matches = 0;
    for (let i = 0; i < items.length; i++) {
      if (!check(items[i], undefined)) continue;
      matches++;
      if (ev !== undefined) (ev.itemSet ??= new Set()).add(i);
      // Without annotations to collect, stop once the verdict is known.
      else if (matches > max || (matches >= min && max === Infinity)) break;
    }
    return matches;
  };
  return {
    check: (value, ev) => {
      if (!Array.isArray(value)) return true;
      const matches = count(value, ev);
      return matches >= min && matches <= max;
    },
    report: (value, path, sink) => {
      const matches = count(value as unknown[], undefined);
      if (matches < min) {
        push(
          sink,
          path,
          min === 1 ? "contains" : "minContains",
          `Expected at least ${min} item${min === 1 ? "" : "s"} matching "contains".`,
        );
      } else {push(
          sink,
          path,
          "maxContains",
          `Expected at most ${max} item${max === 1 ? "" : "s"} matching "contains".`,
        );}
    },
  };
}

function unevaluatedItemsPart(node: Node, runtime: Runtime): Part {
  const check = checkOf(node);
  const unevaluated = (ev: Evaluated | undefined, index: number) =>
    ev === undefined || (index >= ev.items && !ev.itemSet?.has(index));
  return {
    check: (value, ev) => {
      if (!Array.isArray(value)) return true;
      charge(runtime, value.length);
      for (let i = ev?.items ?? 0; i < value.length; i++) {
        if (unevaluated(ev, i) && !check(value[i], undefined)) return false;
      }
      return true;
    },
    report: (value, path, sink, ev) => {
      const items = value as unknown[];
      charge(runtime, items.length);
      for (let i = 0; i < items.length && sink.out.length < sink.max; i++) {
        if (!unevaluated(ev, i) || node.check(items[i], undefined)) continue;
        const at = `${path}/${i}`;
        if (!diagnosedWithin(sink, at)) {
          notAllowed(sink, at, "unevaluatedItems", "This item is not allowed.", node, items[i]);
        }
      }
    },
  };
}

/** Each declared property's position, in a dictionary with no prototype: `constructor` is no inherited hit. */
function positions(names: readonly string[]): Record<string, number> {
  const index: Record<string, number> = Object.create(null);
  for (let i = 0; i < names.length; i++) index[names[i]] = i;
  return index;
}

/**
 * A key's position among the declared properties, or `undefined`. Values mostly list their keys in the
 * schema's order: a key that is the declared name after the last one found (`next`) needs no lookup.
 */
function positionOf(
  name: string,
  names: readonly string[],
  index: Record<string, number>,
  next: number,
): number | undefined {
  return name === names[next] ? next : index[name];
}

function propertiesPart(
  names: string[],
  nodes: Node[],
  patterns: CompiledPattern[],
  patternNodes: Node[],
  additional: Node | undefined,
  runtime: Runtime,
): Part {
  const index = positions(names);
  const checks = nodes.map(checkOf);
  const patternChecks = patternNodes.map(checkOf);
  const inherited = names.map(isInherited);
  const leaves = nodes.map((node) => node.leaf);
  // A declared property's pointer token, escaped once.
  const tokens = names.map((name) => appendPointer("", name));
  const additionalCheck = additional === undefined ? undefined : checkOf(additional);
  const report: Report = (value, path, sink) => {
    const object = value as Record<string, unknown>;
    let next = 0;
    for (const name in object) {
      if (sink.out.length >= sink.max) return;
      charge(runtime, 1);
      // Most properties pass: their pointer is written only for a report.
      let at: string | undefined;
      let matched = false;
      const i = positionOf(name, names, index, next);
      if (i !== undefined) {
        matched = true;
        next = i + 1;
        const item = object[name];
        const leaf = leaves[i];
        if (leaf !== undefined ? !matchesLeaf(leaf, item) : !checks[i](item, undefined)) {
          nodes[i].report(item, at = path + tokens[i], sink, undefined);
        }
      }
      for (let j = 0; j < patterns.length; j++) {
        if (!patterns[j].test(name)) continue;
        matched = true;
        if (!patternNodes[j].check(object[name], undefined)) {
          patternNodes[j].report(object[name], at ??= appendPointer(path, name), sink, undefined);
        }
      }
      if (!matched && additional !== undefined && !additional.check(object[name], undefined)) {
        notAllowed(
          sink,
          at ??= appendPointer(path, name),
          "additionalProperties",
          `Property "${name}" is not allowed.`,
          additional,
          object[name],
        );
      }
    }
  };
  if (additional === FALSE_NODE && patterns.length === 0) {
    // A closed object: one pass over its keys checks them all.
    return {
      check: (value, ev) => {
        if (!isRecord(value)) return true;
        let next = 0;
        let read = 0;
        for (const name in value) {
          const i = positionOf(name, names, index, next);
          if (i === undefined) return false;
          next = i + 1;
          read++;
          const leaf = leaves[i];
          if (leaf !== undefined ? !matchesLeaf(leaf, value[name]) : !checks[i](value[name], undefined)) return false;
        }
        charge(runtime, read);
        if (ev !== undefined) ev.allProps = true;
        return true;
      },
      report,
    };
  }
  const rest = patterns.length > 0 || additionalCheck !== undefined;
  return {
    check: (value, ev) => {
      if (!isRecord(value)) return true;
      charge(runtime, names.length);
      for (let i = 0; i < names.length; i++) {
        const name = names[i];
        const item = value[name];
        if (item === undefined || (inherited[i] && !Object.hasOwn(value, name))) continue;
        if (!checks[i](item, undefined)) return false;
        if (ev !== undefined) ev.props.add(name);
      }
      if (!rest) return true;
      let read = 0;
      for (const name in value) {
        read++;
        let matched = index[name] !== undefined;
        for (let j = 0; j < patterns.length; j++) {
          if (!patterns[j].test(name)) continue;
          matched = true;
          if (!patternChecks[j](value[name], undefined)) return false;
          if (ev !== undefined) ev.props.add(name);
        }
        if (!matched && additionalCheck !== undefined && !additionalCheck(value[name], undefined)) return false;
      }
      charge(runtime, read);
      if (ev !== undefined && additionalCheck !== undefined) ev.allProps = true;
      return true;
    },
    report,
  };
}

/** Whether a schema's object keywords compile to one {@linkcode objectPart}: `type: "object"`, no patterns, additionalProperties absent or false. */
function isFusedObject(schema: Record<string, unknown>): boolean {
  return schema.type === "object" && !("patternProperties" in schema) &&
    (!("additionalProperties" in schema) || schema.additionalProperties === false);
}

/**
 * `type: "object"`, `properties`, the declared `required` and
 * `additionalProperties` false or absent in one part: a closed object is
 * read key by key (`for...in` reads values fastest), an open one name by
 * declared name.
 */
function objectPart(
  names: string[],
  nodes: Node[],
  required: string[],
  additional: Node | undefined,
  typeReport: Report,
  runtime: Runtime,
): Part {
  const checks = nodes.map(checkOf);
  const leaves = nodes.map((node) => node.leaf);
  const inherited = names.map(isInherited);
  const mandatory = names.map((name) => required.includes(name));
  const closed = additional === FALSE_NODE;
  const index = positions(names);
  const requiredCount = mandatory.filter(Boolean).length;
  const missing = requiredPart(required, runtime);
  const others = propertiesPart(names, nodes, [], [], additional, runtime);
  return {
    check: closed
      ? (value, ev) => {
        if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
        const object = value as Record<string, unknown>;
        let found = 0;
        let next = 0;
        let read = 0;
        for (const name in object) {
          const i = positionOf(name, names, index, next);
          if (i === undefined) return false;
          next = i + 1;
          read++;
          const item = object[name];
          const leaf = leaves[i];
          if (leaf !== undefined ? !matchesLeaf(leaf, item) : !checks[i](item, undefined)) return false;
          if (mandatory[i]) found++;
        }
        charge(runtime, read);
        if (found !== requiredCount) return false;
        if (ev !== undefined) ev.allProps = true;
        return true;
      }
      : (value, ev) => {
        if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
        const object = value as Record<string, unknown>;
        charge(runtime, names.length);
        for (let i = 0; i < names.length; i++) {
          const item = object[names[i]];
          if (item === undefined || (inherited[i] && !Object.hasOwn(object, names[i]))) {
            if (mandatory[i]) return false;
            continue;
          }
          const leaf = leaves[i];
          if (leaf !== undefined ? !matchesLeaf(leaf, item) : !checks[i](item, undefined)) return false;
          if (ev !== undefined) ev.props.add(names[i]);
        }
        return true;
      },
    report: (value, path, sink, ev) => {
      if (!isRecord(value)) return typeReport(value, path, sink, ev);
      missing?.report(value, path, sink, ev);
      others.report(value, path, sink, ev);
    },
  };
}

function unevaluatedPropertiesPart(node: Node, runtime: Runtime): Part {
  const check = checkOf(node);
  return {
    check: (value, ev) => {
      if (!isRecord(value) || ev?.allProps) return true;
      let read = 0;
      for (const name in value) {
        read++;
        if (!ev?.props.has(name) && !check(value[name], undefined)) return false;
      }
      charge(runtime, read);
      return true;
    },
    report: (value, path, sink, ev) => {
      if (ev?.allProps) return;
      const object = value as Record<string, unknown>;
      for (const name in object) {
        if (sink.out.length >= sink.max) return;
        charge(runtime, 1);
        if (ev?.props.has(name) || node.check(object[name], undefined)) continue;
        const at = appendPointer(path, name);
        if (diagnosedWithin(sink, at)) continue;
        notAllowed(sink, at, "unevaluatedProperties", `Property "${name}" is not allowed.`, node, object[name]);
      }
    },
  };
}

function propertyNamesPart(node: Node, runtime: Runtime): Part {
  const check = checkOf(node);
  return {
    check: (value) => {
      if (!isRecord(value)) return true;
      let read = 0;
      for (const name in value) {
        read++;
        if (!check(name, undefined)) return false;
      }
      charge(runtime, read);
      return true;
    },
    report: (value, path, sink) => {
      for (const name in value as Record<string, unknown>) {
        charge(runtime, 1);
        if (!node.check(name, undefined)) {
          push(sink, appendPointer(path, name), "propertyNames", `Property name "${name}" is not allowed.`);
        }
      }
    },
  };
}

function dependentSchemasPart(triggers: string[], nodes: Node[], runtime: Runtime): Part {
  const checks = nodes.map(checkOf);
  return {
    check: (value, ev) => {
      if (!isRecord(value)) return true;
      charge(runtime, triggers.length);
      for (let i = 0; i < triggers.length; i++) {
        if (Object.hasOwn(value, triggers[i]) && !checks[i](value, ev)) return false;
      }
      return true;
    },
    report: (value, path, sink, ev) => {
      for (let i = 0; i < triggers.length; i++) {
        if (Object.hasOwn(value as object, triggers[i]) && !nodes[i].check(value, ev)) {
          nodes[i].report(value, path, sink, ev);
        }
      }
    },
  };
}

function allOfPart(nodes: Node[]): Part {
  const check = allChecks(nodes.map(checkOf));
  return {
    check,
    report: (value, path, sink, ev) => {
      for (const node of nodes) if (!node.check(value, ev)) node.report(value, path, sink, ev);
    },
  };
}

function anyOfPart(nodes: Node[]): Part {
  const checks = nodes.map(checkOf);
  return {
    check: (value, ev) => {
      if (ev === undefined || !isContainer(value)) {
        for (let i = 0; i < checks.length; i++) if (checks[i](value, undefined)) return true;
        return false;
      }
      // Every passing branch's annotations count, so none is skipped.
      let passed = false;
      for (let i = 0; i < checks.length; i++) {
        const branch = newEvaluated();
        if (checks[i](value, branch)) {
          passed = true;
          mergeEvaluated(ev, branch);
        }
      }
      return passed;
    },
    report: (_value, path, sink) => push(sink, path, "anyOf", `The value matches none of the schemas in "anyOf".`),
  };
}

function oneOfPart(nodes: Node[]): Part {
  const checks = nodes.map(checkOf);
  const count = (value: unknown, ev: Evaluated | undefined): number => {
    let passed = 0;
    let kept: Evaluated | undefined;
    for (let i = 0; i < checks.length; i++) {
      const branch = ev === undefined ? undefined : newEvaluated();
      if (!checks[i](value, branch)) continue;
      if (++passed > 1) return passed;
      kept = branch;
    }
    if (passed === 1 && ev !== undefined && kept !== undefined) mergeEvaluated(ev, kept);
    return passed;
  };
  return {
    check: (value, ev) => count(value, isContainer(value) ? ev : undefined) === 1,
    report: (value, path, sink) => {
      const passed = count(value, undefined);
      push(
        sink,
        path,
        "oneOf",
        passed === 0
          ? `The value matches none of the schemas in "oneOf"; exactly one must match.`
          : `The value matches more than one of the schemas in "oneOf"; exactly one must match.`,
      );
    },
  };
}

function notPart(node: Node): Part {
  const check = checkOf(node);
  return {
    check: (value) => !check(value, undefined),
    report: (_value, path, sink) => push(sink, path, "not", `The value must not match the schema in "not".`),
  };
}

function ifPart(condition: Node, then: Node | undefined, otherwise: Node | undefined): Part {
  const test = checkOf(condition);
  const thenCheck = then === undefined ? undefined : checkOf(then);
  const elseCheck = otherwise === undefined ? undefined : checkOf(otherwise);
  const holds = (value: unknown, ev: Evaluated | undefined): boolean => {
    if (ev === undefined || !isContainer(value)) return test(value, undefined);
    const branch = newEvaluated();
    if (!test(value, branch)) return false;
    mergeEvaluated(ev, branch);
    return true;
  };
  return {
    check: (value, ev) => {
      if (holds(value, ev)) return thenCheck === undefined || thenCheck(value, ev);
      return elseCheck === undefined || elseCheck(value, ev);
    },
    report: (value, path, sink, ev) => {
      const branch = holds(value, undefined) ? then : otherwise;
      if (branch !== undefined && !branch.check(value, ev)) branch.report(value, path, sink, ev);
    },
  };
}
