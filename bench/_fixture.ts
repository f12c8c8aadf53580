// The one tool every dispatch case is built from: a realistic ticket-filing
// tool with nine properties (five required), a nested array of objects,
// enums, string patterns and no extra properties, written once per schema
// library with the same meaning.

import * as v from "valibot";
import { z } from "./_peers.ts";

const PROJECT = /^[A-Z][A-Z0-9]{1,9}$/;
const USER = /^[a-z][a-z0-9._-]{1,31}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const KEY = /^[A-Z][A-Z0-9]{1,9}-\d+$/;
const URL_PREFIX = /^https:\/\//;
const TYPES = ["bug", "feature", "task"] as const;
const PRIORITIES = ["low", "medium", "high", "urgent"] as const;

export const NAME = "create_ticket";
export const DESCRIPTION = "File a ticket in the tracker.";

/** The input, in Valibot: the source of truth for ours and the floor. */
export const valibotInput = v.strictObject({
  title: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  project: v.pipe(v.string(), v.regex(PROJECT)),
  type: v.picklist(TYPES),
  priority: v.picklist(PRIORITIES),
  assignee: v.optional(v.pipe(v.string(), v.regex(USER))),
  labels: v.optional(v.pipe(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(40))), v.maxLength(10))),
  dueDate: v.optional(v.pipe(v.string(), v.regex(DATE))),
  estimateHours: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1000))),
  checklist: v.pipe(
    v.array(v.strictObject({
      text: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
      done: v.boolean(),
      owner: v.optional(v.pipe(v.string(), v.regex(USER))),
    })),
    v.maxLength(50),
  ),
});

/** The output, in Valibot. */
export const valibotOutput = v.strictObject({
  key: v.pipe(v.string(), v.regex(KEY)),
  status: v.picklist(["open"]),
  openItems: v.pipe(v.number(), v.integer(), v.minValue(0)),
  url: v.pipe(v.string(), v.regex(URL_PREFIX)),
});

/** The same input in zod, for the peers. */
export const zodInput = z.strictObject({
  title: z.string().min(1).max(200),
  project: z.string().regex(PROJECT),
  type: z.enum(TYPES),
  priority: z.enum(PRIORITIES),
  assignee: z.string().regex(USER).optional(),
  labels: z.array(z.string().min(1).max(40)).max(10).optional(),
  dueDate: z.string().regex(DATE).optional(),
  estimateHours: z.number().min(0).max(1000).optional(),
  checklist: z.array(z.strictObject({
    text: z.string().min(1).max(200),
    done: z.boolean(),
    owner: z.string().regex(USER).optional(),
  })).max(50),
});

/** The same output in zod. */
export const zodOutput = z.strictObject({
  key: z.string().regex(KEY),
  status: z.enum(["open"]),
  openItems: z.number().int().min(0),
  url: z.string().regex(URL_PREFIX),
});

export type Ticket = v.InferOutput<typeof valibotInput>;
export type Filed = v.InferOutput<typeof valibotOutput>;

/** The handler every contender runs: the same small amount of work. */
export function fileTicket(input: Ticket): Filed {
  const key = `${input.project}-42`;
  return {
    key,
    status: "open",
    openItems: input.checklist.filter((item) => !item.done).length,
    url: `https://tracker.invalid/${key}`,
  };
}

/** A valid call, as a model sends it: a JSON string. */
export const VALID_ARGUMENTS = JSON.stringify({
  title: "Login fails after password reset",
  project: "AUTH",
  type: "bug",
  priority: "high",
  assignee: "dana.k",
  labels: ["login", "regression", "p1"],
  dueDate: "2026-12-15",
  estimateHours: 6.5,
  checklist: [
    { text: "Reproduce on staging", done: true, owner: "dana.k" },
    { text: "Find the failing token check", done: false },
    { text: "Write a regression test", done: false, owner: "lee" },
    { text: "Ship the fix", done: false },
  ],
});

/** An invalid call with the mistakes models make: a wrong enum, an extra property, a bad nested item. */
export const INVALID_ARGUMENTS = JSON.stringify({
  title: "Login fails after password reset",
  project: "AUTH",
  type: "bug",
  priority: "critical",
  severity: "p1",
  assignee: "dana.k",
  checklist: [
    { text: "Reproduce on staging", done: "yes" },
    { text: "Ship the fix", done: false },
  ],
});

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function boundedString(value: unknown, min: number, max: number): value is string {
  return typeof value === "string" && value.length >= min && value.length <= max;
}

const INPUT_KEYS = new Set([
  "title",
  "project",
  "type",
  "priority",
  "assignee",
  "labels",
  "dueDate",
  "estimateHours",
  "checklist",
]);
const ITEM_KEYS = new Set(["text", "done", "owner"]);
const OUTPUT_KEYS = new Set(["key", "status", "openItems", "url"]);

function onlyKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}

function optionalUser(value: unknown): boolean {
  return value === undefined || (typeof value === "string" && USER.test(value));
}

function isItem(value: unknown): boolean {
  return isObject(value) && onlyKeys(value, ITEM_KEYS) && boundedString(value.text, 1, 200) &&
    typeof value.done === "boolean" && optionalUser(value.owner);
}

/** The hand-written check of the input: the absolute floor, no schema library. */
export function isTicket(value: unknown): value is Ticket {
  if (!isObject(value) || !onlyKeys(value, INPUT_KEYS)) return false;
  const { title, project, type, priority, assignee, labels, dueDate, estimateHours, checklist } = value;
  if (!boundedString(title, 1, 200)) return false;
  if (typeof project !== "string" || !PROJECT.test(project)) return false;
  if (!(TYPES as readonly unknown[]).includes(type)) return false;
  if (!(PRIORITIES as readonly unknown[]).includes(priority)) return false;
  if (!optionalUser(assignee)) return false;
  if (
    labels !== undefined &&
    !(Array.isArray(labels) && labels.length <= 10 && labels.every((label) => boundedString(label, 1, 40)))
  ) return false;
  if (dueDate !== undefined && !(typeof dueDate === "string" && DATE.test(dueDate))) return false;
  if (
    estimateHours !== undefined &&
    !(typeof estimateHours === "number" && estimateHours >= 0 && estimateHours <= 1000)
  ) return false;
  return Array.isArray(checklist) && checklist.length <= 50 && checklist.every(isItem);
}

/** The hand-written check of the output. */
export function isFiled(value: unknown): value is Filed {
  return isObject(value) && onlyKeys(value, OUTPUT_KEYS) && typeof value.key === "string" && KEY.test(value.key) &&
    value.status === "open" && Number.isInteger(value.openItems) && (value.openItems as number) >= 0 &&
    typeof value.url === "string" && URL_PREFIX.test(value.url);
}
