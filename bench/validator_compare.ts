// Side by side, in one process: a hand-written check of a 9-property object
// schema, the compiled validator's isValid, and @cfworker/json-schema.
// Run: deno run -A bench/validator_compare.ts

import { Validator } from "@cfworker/json-schema";
import { checkValidator } from "../src/core/schema/validator/_checked.ts";
import { buildValidator } from "../src/core/schema/validator/_build.ts";

const schema = {
  type: "object",
  properties: {
    id: { type: "string", minLength: 1, maxLength: 36 },
    name: { type: "string", minLength: 1, maxLength: 64 },
    email: { type: "string", minLength: 3, maxLength: 254 },
    age: { type: "integer", minimum: 0, maximum: 150 },
    score: { type: "number" },
    active: { type: "boolean" },
    role: { enum: ["admin", "user", "guest"] },
    tags: { type: "array", items: { type: "string" }, maxItems: 10 },
    address: {
      type: "object",
      properties: { street: { type: "string" }, city: { type: "string" } },
      required: ["city"],
      additionalProperties: false,
    },
  },
  required: ["id", "name", "email", "age", "role"],
  additionalProperties: false,
} as const;

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

function stringWithin(value: unknown, min: number, max: number): boolean {
  if (typeof value !== "string") return false;
  if (value.length >= min && value.length <= max) return true;
  const length = codePoints(value);
  return length >= min && length <= max;
}

const KEYS = new Set(Object.keys(schema.properties));
const ROLES = new Set(["admin", "user", "guest"]);

/** The same rules, written by hand. */
function handWritten(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const o = value as Record<string, unknown>;
  for (const key in o) if (!KEYS.has(key)) return false;
  if (!stringWithin(o.id, 1, 36) || !stringWithin(o.name, 1, 64) || !stringWithin(o.email, 3, 254)) return false;
  if (!Number.isInteger(o.age) || (o.age as number) < 0 || (o.age as number) > 150) return false;
  if (o.score !== undefined && typeof o.score !== "number") return false;
  if (o.active !== undefined && typeof o.active !== "boolean") return false;
  if (!ROLES.has(o.role as string)) return false;
  if (o.tags !== undefined) {
    if (!Array.isArray(o.tags) || o.tags.length > 10) return false;
    for (let i = 0; i < o.tags.length; i++) if (typeof o.tags[i] !== "string") return false;
  }
  if (o.address !== undefined) {
    const a = o.address;
    if (typeof a !== "object" || a === null || Array.isArray(a)) return false;
    const r = a as Record<string, unknown>;
    for (const key in r) if (key !== "street" && key !== "city") return false;
    if (typeof r.city !== "string") return false;
    if (r.street !== undefined && typeof r.street !== "string") return false;
  }
  return true;
}

const values: unknown[] = [];
for (let i = 0; i < 64; i++) {
  values.push(JSON.parse(JSON.stringify({
    id: `id-${i}`,
    name: `Person ${i}`,
    email: `person${i}@example.com`,
    age: 20 + (i % 60),
    score: i * 1.5,
    active: i % 2 === 0,
    role: ["admin", "user", "guest"][i % 3],
    tags: i % 4 === 0 ? [] : ["a", "b", `t${i}`],
    address: { street: `${i} Main St`, city: "Springfield" },
  })));
}

const compiled = buildValidator(checkValidator(schema));
const cfworker = new Validator(schema as never, "2020-12", false);
const contenders: Record<string, (value: unknown) => boolean> = {
  "hand-written": handWritten,
  "compiled isValid": (value) => compiled.isValid(value),
  cfworker: (value) => cfworker.validate(value).valid,
};

for (const [name, check] of Object.entries(contenders)) {
  for (const value of values) if (!check(value)) throw new Error(`${name} rejects a valid value`);
  if (check({ ...values[0] as object, extra: 1 })) throw new Error(`${name} accepts an extra property`);
}

const WARM_UP = 100_000;
const CALLS = 200_000;
const ROUNDS = 9;

let sink = 0;
function run(check: (value: unknown) => boolean, calls: number): number {
  const started = performance.now();
  for (let i = 0; i < calls; i++) if (check(values[i & 63])) sink++;
  return (performance.now() - started) * 1e6 / calls;
}

for (const check of Object.values(contenders)) run(check, WARM_UP);

const names = Object.keys(contenders);
const times: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
const compiledRatios: number[] = [];
const cfworkerRatios: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  // Alternate the order so that no contender always runs first.
  const order = round % 2 === 0 ? names : [...names].reverse();
  const took: Record<string, number> = {};
  for (const name of order) took[name] = run(contenders[name], name === "cfworker" ? CALLS / 10 : CALLS);
  for (const name of names) times[name].push(took[name]);
  compiledRatios.push(took["compiled isValid"] / took["hand-written"]);
  cfworkerRatios.push(took.cfworker / took["compiled isValid"]);
}

function median(list: number[]): number {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

console.log(`Deno ${Deno.version.deno}, V8 ${Deno.version.v8}; warm-up ${WARM_UP} calls each, ${ROUNDS} paired rounds`);
for (const name of names) {
  console.log(`${name.padEnd(18)} ${median(times[name]).toFixed(1).padStart(8)} ns/call (median)`);
}
console.log(`compiled / hand-written: ${median(compiledRatios).toFixed(2)}x (median of paired ratios)`);
console.log(`cfworker / compiled:     ${median(cfworkerRatios).toFixed(1)}x (median of paired ratios)`);
if (sink === -1) console.log(sink);
