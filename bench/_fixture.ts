// The ticket tool's rules (_ticket.ts) written once per schema library, with
// the same meaning: Valibot for ours and the floor, zod for the peers.

import * as v from "valibot";
import { z } from "./_peers.ts";
import { DATE, KEY, PRIORITIES, PROJECT, TYPES, URL_PREFIX, USER } from "./_ticket.ts";

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
