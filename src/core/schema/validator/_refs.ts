// Reference resolution: an index of the schema resources (`$id`) and anchors
// of the schema and its remotes, the lookup of a `$ref` in that index, and
// where a `$dynamicRef` may lead (its `$dynamicAnchor` targets, linked as
// their resources are reached).

import { isRecord } from "../../common/_is_record.ts";
import { fragmentTokens } from "../../common/_json_pointer.ts";
import { SchemaRefusal } from "./refusal.ts";
import { type Draft, SCHEMA_ARRAYS, SCHEMA_MAPS, SCHEMA_VALUED } from "./_keywords.ts";

/** The base URI of a schema without `$id`; it names no real host. */
export const ROOT_BASE = "json-schema:///root";

/** The deepest schema nesting compiled; deeper schemas are refused. */
export const MAX_SCHEMA_DEPTH = 64;

/** The refusal of a schema nested deeper than {@linkcode MAX_SCHEMA_DEPTH} at `location`, shown shortened. */
export function tooDeep(location: string): SchemaRefusal {
  return new SchemaRefusal(
    "invalid",
    "depth",
    "",
    location,
    `Cannot compile the schema as it nests deeper than ${MAX_SCHEMA_DEPTH} schemas at ${location.slice(0, 200)}...`,
  );
}

/**
 * The refusal of schema documents that hold more than `max` schemas, found at `location`: the schema whose count
 * passed it.
 */
export function tooManySchemas(max: number, location: string): SchemaRefusal {
  return new SchemaRefusal(
    "invalid",
    "budget",
    "",
    location,
    `Cannot compile the schema as it holds more than ${max} schemas (the budget's schemaNodes)`,
  );
}

/** What the index knows about the schema documents. */
export interface Registry {
  /** The most schemas the documents may hold; indexing stops past it. */
  readonly maxSchemas: number;
  /** The schemas indexed so far, booleans included. */
  held: number;
  /** Fragment-free URI → the schema resource it names. */
  readonly resources: Map<string, unknown>;
  /** Absolute URI with a plain-name fragment → the schema it names. */
  readonly anchors: Map<string, object>;
  /** The schemas a `$dynamicAnchor` names, which a `$dynamicRef` may be redirected to: name → resource URI → schema. */
  readonly dynamicAnchors: Map<string, Map<string, object>>;
  /** Schema object → its base URI, after its own `$id`. */
  readonly bases: Map<object, string>;
  /** Schema object → where it is, as refusals show it. */
  readonly locations: Map<object, string>;
}

/** A resolved reference: the schema it names and that schema's base URI. */
export interface Target {
  readonly schema: unknown;
  readonly base: string;
}

// A fragment of printable ASCII that URL parsing keeps as written (it percent-encodes only controls, space, `"`,
// `<`, `>` and a backtick there).
const PLAIN_FRAGMENT = /^#[!#-;=?-_a-~]*$/;

/**
 * Resolves a URI reference against a base (an absolute URI as this function returns it), or `undefined` when it
 * does not parse. A plain fragment (`#/$defs/a`, the common `$ref`) names the base's document without a URL parse.
 */
export function resolveUri(reference: string, base: string): string | undefined {
  if (PLAIN_FRAGMENT.test(reference)) return withoutFragment(base) + reference;
  try {
    return new URL(reference, base).href;
  } catch {
    return undefined;
  }
}

/** A URI without its fragment. */
export function withoutFragment(uri: string): string {
  const hash = uri.indexOf("#");
  return hash === -1 ? uri : uri.slice(0, hash);
}

function splitFragment(uri: string): [string, string] {
  const hash = uri.indexOf("#");
  return hash === -1 ? [uri, ""] : [uri.slice(0, hash), uri.slice(hash + 1)];
}

/** Creates an empty registry for documents that hold at most `maxSchemas` schemas. */
export function createRegistry(maxSchemas: number): Registry {
  return {
    maxSchemas,
    held: 0,
    resources: new Map(),
    anchors: new Map(),
    dynamicAnchors: new Map(),
    bases: new Map(),
    locations: new Map(),
  };
}

/**
 * Indexes one document: its resources and anchors, each schema's base URI
 * and location. Only subschema keywords are walked, so an `$id` inside
 * `enum` or an unknown keyword names nothing, as the specification says.
 *
 * @throws {SchemaRefusal} When the document nests deeper than {@linkcode MAX_SCHEMA_DEPTH}, the documents hold more
 * schemas than the registry's `maxSchemas`, or an `$id` is malformed.
 */
export function indexDocument(document: unknown, base: string, prefix: string, draft: Draft, registry: Registry): void {
  claim(registry.resources, base, document, prefix, "$id", registry);
  walk(document, base, prefix, 0, draft, registry, prefix);
}

/**
 * Names a schema by a URI, refusing a URI that already names another one:
 * which of the two a `$ref` meant cannot be known, and taking either would
 * validate against a schema its author may not have meant.
 */
function claim<T>(
  names: Map<string, T>,
  uri: string,
  node: T,
  location: string,
  keyword: string,
  registry: Registry,
): void {
  const earlier = names.get(uri);
  if (earlier !== undefined && earlier !== node) {
    const where = typeof earlier === "object" && earlier !== null ? registry.locations.get(earlier) : undefined;
    throw new SchemaRefusal(
      "invalid",
      "duplicate",
      keyword,
      location,
      `Cannot compile the schema as ${location || "the root"} names a schema that ${
        where === undefined ? "another schema" : where || "the root"
      } names already: current value is ${JSON.stringify(asWritten(uri))}`,
    );
  }
  names.set(uri, node);
}

/** A URI as the schema's author wrote it: one within a schema with no `$id` of its own is shown as its fragment. */
function asWritten(uri: string): string {
  return uri.startsWith(`${ROOT_BASE}#`) ? uri.slice(ROOT_BASE.length) : uri;
}

function walk(
  node: unknown,
  base: string,
  location: string,
  depth: number,
  draft: Draft,
  registry: Registry,
  prefix: string,
): void {
  if (isRecord(node) ? registry.bases.has(node) : typeof node !== "boolean") return;
  // A boolean schema costs the check and the compiler a node too.
  if (++registry.held > registry.maxSchemas) throw tooManySchemas(registry.maxSchemas, location);
  if (!isRecord(node)) return;
  if (depth > MAX_SCHEMA_DEPTH) throw tooDeep(location);
  let own = base;
  // Draft-07 ignores every sibling of `$ref`, `$id` included.
  const id = draft === "7" && node.$ref !== undefined ? undefined : node.$id;
  if (typeof id === "string") {
    const resolved = resolveUri(id, base);
    if (resolved === undefined) {
      throw new SchemaRefusal(
        "invalid",
        "malformed",
        "$id",
        `${location}/$id`,
        `Cannot compile the schema as "$id" at ${location}/$id must be a URI reference: current value is ${
          JSON.stringify(id)
        }`,
      );
    }
    const [uri, fragment] = splitFragment(resolved);
    const at = `${location}/$id`;
    // A fragment alone names an anchor in the enclosing resource, as draft-07 says; 2020-12 forbids it, and
    // reading it so keeps it from renaming that resource.
    if (id.startsWith("#")) {
      claim(registry.anchors, resolved, node, at, "$id", registry);
    } else {
      own = uri;
      claim(registry.resources, uri, node, at, "$id", registry);
      if (fragment !== "") claim(registry.anchors, resolved, node, at, "$id", registry);
    }
  }
  if (draft === "2020-12") {
    for (const keyword of ["$anchor", "$dynamicAnchor"]) {
      const anchor = node[keyword];
      if (typeof anchor === "string") {
        claim(registry.anchors, `${own}#${anchor}`, node, `${location}/${keyword}`, keyword, registry);
        if (keyword === "$dynamicAnchor") {
          const named = registry.dynamicAnchors.get(anchor) ?? new Map<string, object>();
          registry.dynamicAnchors.set(anchor, named.set(own, node));
        }
      }
    }
  }
  registry.bases.set(node, own);
  registry.locations.set(node, location);
  for (const keyword of SCHEMA_VALUED[draft]) {
    if (keyword in node) walk(node[keyword], own, `${location}/${keyword}`, depth + 1, draft, registry, prefix);
  }
  for (const keyword of SCHEMA_ARRAYS[draft]) {
    const items = node[keyword];
    if (!Array.isArray(items)) continue;
    for (let i = 0; i < items.length; i++) {
      walk(items[i], own, `${location}/${keyword}/${i}`, depth + 1, draft, registry, prefix);
    }
  }
  for (const keyword of SCHEMA_MAPS[draft]) {
    const map = node[keyword];
    if (!isRecord(map)) continue;
    for (const name in map) {
      const token = name.replaceAll("~", "~0").replaceAll("/", "~1");
      walk(map[name], own, `${location}/${keyword}/${token}`, depth + 1, draft, registry, prefix);
    }
  }
}

/**
 * Finds the schema a `$ref` names.
 *
 * @returns The target, `"resource"` when no known document has the URI (a
 * fallback validator may know it, e.g. a meta-schema), or `"fragment"` when
 * the document is known but the pointer or anchor names nothing in it.
 */
export function resolveReference(
  reference: string,
  base: string,
  registry: Registry,
): Target | "resource" | "fragment" {
  const full = resolveUri(reference, base);
  if (full === undefined) return "resource";
  const [uri, fragment] = splitFragment(full);
  const resource = registry.resources.get(uri);
  if (resource === undefined) return "resource";
  if (fragment === "") return { schema: resource, base: uri };
  if (!fragment.startsWith("/")) {
    const anchored = registry.anchors.get(full);
    return anchored === undefined ? "fragment" : { schema: anchored, base: registry.bases.get(anchored) ?? uri };
  }
  const tokens = fragmentTokens(fragment);
  if (tokens === undefined) return "fragment";
  let node: unknown = resource;
  let nodeBase = uri;
  for (const token of tokens) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= node.length) return "fragment";
      node = node[Number(token)];
    } else if (isRecord(node) && Object.hasOwn(node, token)) {
      node = node[token];
    } else {
      return "fragment";
    }
    if (isRecord(node)) nodeBase = registry.bases.get(node) ?? nodeBase;
  }
  return { schema: node, base: nodeBase };
}

/**
 * The `$dynamicAnchor` targets of dynamic references, linked once their
 * resource is entered. A resource is in the dynamic scope only while
 * something in it is evaluated, so only a resource that is compiled (reached
 * through subschemas and references) can lend its anchor; linking the others
 * would check, and refuse, documents the schema never uses.
 */
export class DynamicTargets {
  readonly #entered = new Set<string>();
  readonly #waiting = new Map<string, (() => void)[]>();
  #ready: (() => void)[] = [];

  /** Notes that a schema of the resource `uri` is compiled. */
  enter(uri: string): void {
    if (this.#entered.has(uri)) return;
    this.#entered.add(uri);
    for (const link of this.#waiting.get(uri) ?? []) this.#ready.push(link);
    this.#waiting.delete(uri);
  }

  /** Links a target with `link` once its resource is entered. */
  wait(resource: string, link: () => void): void {
    if (this.#entered.has(resource)) {
      this.#ready.push(link);
      return;
    }
    const waiting = this.#waiting.get(resource);
    if (waiting === undefined) this.#waiting.set(resource, [link]);
    else waiting.push(link);
  }

  /**
   * Links every waiting target whose resource has been entered.
   *
   * @returns Whether any was linked: the caller compiles what they reach, then calls again.
   */
  release(): boolean {
    const ready = this.#ready;
    this.#ready = [];
    for (const link of ready) link();
    return ready.length > 0;
  }
}

/**
 * Where a `$dynamicRef` may lead besides its static target: when that target
 * is a `$dynamicAnchor` of the fragment's name (the reference is
 * "bookended"), every schema resource's `$dynamicAnchor` of that name; the
 * outermost of those resources in the dynamic scope wins at validation
 * (Draft 2020-12, section 8.2.3.2). `undefined` otherwise: the reference
 * then acts as a `$ref`. Every reference to one name shares its targets.
 *
 * @param reference The `$dynamicRef` value.
 * @param base The base URI it is resolved against.
 * @param registry The indexed documents.
 * @returns The anchor's name and its schemas by resource URI, or `undefined`.
 */
export function dynamicCandidates(
  reference: string,
  base: string,
  registry: Registry,
): { readonly name: string; readonly targets: ReadonlyMap<string, object> } | undefined {
  const full = resolveUri(reference, base);
  if (full === undefined) return undefined;
  const [uri, name] = splitFragment(full);
  const targets = registry.dynamicAnchors.get(name);
  if (name === "" || name.startsWith("/") || targets === undefined || !targets.has(uri)) return undefined;
  return { name, targets };
}
