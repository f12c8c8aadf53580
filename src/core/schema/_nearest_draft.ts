// An untrusted schema never runs on the fallback validator, which has no step
// budget. A draft-04, draft-06 or 2019-09 one is compiled as the nearest draft
// the compiled validator implements, where every keyword it uses means the
// same there; one that uses a keyword whose meaning differs is refused, naming
// it. (A host's own such schema runs on the fallback instead.)

import { walkReachable } from "./_subschemas.ts";

/** The drafts compiled as a nearer one, and the draft each is compiled as. */
const NEAREST = {
  "4": { as: "7", uri: "http://json-schema.org/draft-07/schema#" },
  "6": { as: "7", uri: "http://json-schema.org/draft-07/schema#" },
  "2019-09": { as: "2020-12", uri: "https://json-schema.org/draft/2020-12/schema" },
} as const;

/** The keywords draft-07 added that draft-06 (and draft-04) ignore. */
export const DRAFT_07_CONDITIONALS: readonly string[] = ["if", "then", "else"];

/** A draft the compiled validator does not implement but can stand in for. */
export type NearDraft = keyof typeof NEAREST;

/**
 * Whether the compiled validator can stand in for a draft.
 *
 * @param draft A draft.
 * @returns Whether it is one compiled as a nearer draft.
 */
export function isNearDraft(draft: string): draft is NearDraft {
  return Object.hasOwn(NEAREST, draft);
}

/**
 * The draft a near draft is compiled as.
 *
 * @param draft The near draft.
 * @returns The compiled draft.
 */
export function nearestDraftOf(draft: NearDraft): "7" | "2020-12" {
  return NEAREST[draft].as;
}

/** A schema rewritten for the nearest compiled draft, or the keyword that keeps it from one. */
export type NearestDraftResult =
  | { readonly ok: true; readonly draft: "7" | "2020-12"; readonly schema: Record<string, unknown> }
  | { readonly ok: false; readonly keyword: string; readonly path: string };

// Keywords the nearer draft reads differently: draft-04 ignores what draft-06
// and draft-07 added (`$id` among them; its own `id` becomes `$id`); draft-06 ignores the
// conditionals draft-07 added (its other new keywords are annotations); 2019-09
// has recursive references and array-form `items` where 2020-12 has dynamic
// ones and `prefixItems`.
const DIFFERING: Readonly<Record<NearDraft, ReadonlySet<string>>> = {
  "4": new Set(["$id", "const", "contains", "propertyNames", ...DRAFT_07_CONDITIONALS]),
  "6": new Set(DRAFT_07_CONDITIONALS),
  "2019-09": new Set([
    "$recursiveRef",
    "$recursiveAnchor",
    "additionalItems",
    "prefixItems",
    "$dynamicRef",
    "$dynamicAnchor",
  ]),
};

/**
 * Rewrites a private copy of a draft-04, draft-06 or 2019-09 schema so that the compiled
 * validator reads it as its own draft does: draft-04's boolean
 * `exclusiveMaximum` / `exclusiveMinimum` become draft-07's numbers, and its `id` draft-07's `$id`; draft-04's and
 * draft-06's copies lose draft-07's content keywords, which they do not have.
 */
export function asNearestDraft(schema: Record<string, unknown>, draft: NearDraft): NearestDraftResult {
  const copy = structuredClone(schema);
  let differing: { keyword: string; path: string } | undefined;
  const containing: [Record<string, unknown>, string][] = [];
  let unevaluatedItems = false;
  walkReachable(copy, (node, path) => {
    if (differing) return;
    const keyword = Object.keys(node).find((name) => DIFFERING[draft].has(name));
    if (keyword !== undefined || (draft === "2019-09" && Array.isArray(node.items))) {
      differing = { keyword: keyword ?? "items", path };
      return;
    }
    if ("contains" in node) containing.push([node, path]);
    unevaluatedItems ||= "unevaluatedItems" in node;
    // Draft-07 asserts its content keywords when asked to assert formats; the older drafts have none to assert.
    if (draft !== "2019-09") {
      delete node.contentMediaType;
      delete node.contentEncoding;
    }
    if (draft === "4") {
      exclusiveAsNumber(node, "exclusiveMaximum", "maximum");
      exclusiveAsNumber(node, "exclusiveMinimum", "minimum");
      // Draft-04's `id` sets a base URI or names a fragment as draft-07's `$id` does.
      if (typeof node.id === "string") {
        node.$id = node.id;
        delete node.id;
      }
    }
  });
  // 2019-09's `contains` evaluates no item for `unevaluatedItems`, as 2020-12's does: it is asked as the same
  // assertion with no annotation, an array none of whose items fails to match it.
  if (!differing && draft === "2019-09" && unevaluatedItems) {
    for (const [node, path] of containing) {
      if ("minContains" in node || "maxContains" in node) {
        differing = { keyword: "contains", path };
        break;
      }
      const allOf = Array.isArray(node.allOf) ? node.allOf : [];
      node.allOf = [...allOf, { not: { type: "array", items: { not: node.contains } } }];
      delete node.contains;
    }
  }
  if (differing) return { ok: false, ...differing };
  const nearest = NEAREST[draft];
  copy.$schema = nearest.uri;
  return { ok: true, draft: nearest.as, schema: copy };
}

// Draft-04 `exclusiveMaximum: true` makes `maximum` exclusive; draft-07 names the bound itself.
function exclusiveAsNumber(node: Record<string, unknown>, exclusive: string, bound: string) {
  if (typeof node[exclusive] !== "boolean") return;
  if (node[exclusive] && typeof node[bound] === "number") {
    node[exclusive] = node[bound];
    delete node[bound];
  } else {
    delete node[exclusive];
  }
}
