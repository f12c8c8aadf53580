// The one tool every dispatch case is built from, with no schema library: a
// realistic ticket-filing tool with nine properties (five required), a
// nested array of objects, enums, string patterns and no extra properties.
// Its name, types, handler, the arguments a model sends, and the
// hand-written check (the absolute floor). The same rules written with
// Valibot and zod are in _fixture.ts; this module alone also runs in
// Node.js and Bun (bench/_json_schema_probe.ts).

export const PROJECT = /^[A-Z][A-Z0-9]{1,9}$/;
export const USER = /^[a-z][a-z0-9._-]{1,31}$/;
export const DATE = /^\d{4}-\d{2}-\d{2}$/;
export const KEY = /^[A-Z][A-Z0-9]{1,9}-\d+$/;
export const URL_PREFIX = /^https:\/\//;
export const TYPES = ["bug", "feature", "task"] as const;
export const PRIORITIES = ["low", "medium", "high", "urgent"] as const;

export const NAME = "create_ticket";
export const DESCRIPTION = "File a ticket in the tracker.";

/** A ticket, as the input schema admits it. */
export interface Ticket {
  title: string;
  project: string;
  type: (typeof TYPES)[number];
  priority: (typeof PRIORITIES)[number];
  assignee?: string;
  labels?: string[];
  dueDate?: string;
  estimateHours?: number;
  checklist: { text: string; done: boolean; owner?: string }[];
}

/** A filed ticket, as the output schema admits it. */
export interface Filed {
  key: string;
  status: "open";
  openItems: number;
  url: string;
}

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

/** A dispatch: takes the arguments string, resolves to whether the call produced an output. */
export type Dispatch = (json: string) => Promise<boolean>;

/** A dispatch through two checks: parse, check in, run the handler, check out. */
export function through(input: (value: unknown) => boolean, output: (value: unknown) => boolean): Dispatch {
  return async (json) => {
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch {
      return false;
    }
    if (!input(value)) return false;
    return output(await fileTicket(value as Ticket));
  };
}

/** A hand-written dispatch: JSON.parse, a hand-written check in and out, the handler. */
export function handWritten(): Dispatch {
  return through(isTicket, isFiled);
}
