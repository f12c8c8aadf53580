// Case 8: what observation costs. Typed dispatch (case 1's tool and valid
// input) with no observer, with an observer that does nothing, and with
// OpenTelemetry spans through a no-op tracer (what a host that installed
// the API but no SDK pays), side by side with the Valibot floor. The cost
// of the observer hook when unused is case 1's ours-to-floor ratio, read
// against the run before the observer existed (bench/RESULTS.md says which).

import { ToolSet } from "../mod.ts";
import { toolSpans } from "../otel.ts";
import { fileTicket, VALID_ARGUMENTS } from "./_fixture.ts";
import { check, compare, type Mode, ratioRows, type Row } from "./_harness.ts";
import { otelTrace } from "./_peers.ts";
import { FLOOR, ours, oursTool, valibotFloor } from "./typed_dispatch.ts";

const NO_OBSERVER = "ours: no observer";
const EMPTY = "ours: an observer with no hooks";
const OTEL = "ours: toolSpans, no-op tracer";

/**
 * Runs case 8.
 *
 * @param mode Full or smoke.
 * @returns The rows.
 */
export async function observer(mode: Mode): Promise<Row[]> {
  const tool = () => oursTool(fileTicket);
  const contenders = [
    { name: FLOOR, dispatch: valibotFloor(fileTicket) },
    { name: NO_OBSERVER, dispatch: ours() },
    { name: EMPTY, dispatch: ours(new ToolSet({ observer: {} }).register(tool())) },
    {
      name: OTEL,
      dispatch: ours(new ToolSet({ observer: toolSpans({ tracer: otelTrace.getTracer("bench") }) }).register(tool())),
    },
  ];
  for (const { name, dispatch } of contenders) {
    check(await dispatch(VALID_ARGUMENTS), `${name} refused the valid input`);
  }
  const stats = await compare(
    contenders.map(({ name, dispatch }) => ({ name, run: () => dispatch(VALID_ARGUMENTS) })),
    mode,
  );
  const names = contenders.map((c) => c.name);
  const base = names.indexOf(NO_OBSERVER);
  return ratioRows("8. Observation, typed dispatch, valid input (per call)", names, stats, "ns", FLOOR, {
    [OTEL]: (ratio, all) => ({ text: "≤ 1.10× no observer", met: ratio <= all[base] * 1.1 }),
  });
}
