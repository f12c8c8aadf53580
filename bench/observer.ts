// Case 11: what observation costs. Typed dispatch (case 1's tool and valid
// input) in the core as it was before the observer existed, in this core
// with no observer (what the unused hooks cost), with an observer that has
// no hooks, and with OpenTelemetry spans through a no-op tracer (what a
// host that installed the API but no SDK pays), side by side with the
// Valibot floor.

import { ToolSet } from "../mod.ts";
import { toolSpans } from "../otel.ts";
import { valibotInput, valibotOutput } from "./_fixture.ts";
import { DESCRIPTION, fileTicket, NAME, VALID_ARGUMENTS } from "./_ticket.ts";
import { check, compare, type Mode, ratioRows, type Row } from "./_harness.ts";
import { otelTrace } from "./_peers.ts";
import { baselineCore, BEFORE_OBSERVER } from "./_baseline.ts";
import { FLOOR, ours, oursTool, valibotFloor } from "./typed_dispatch.ts";

const BEFORE = `ours before the observer (${BEFORE_OBSERVER.slice(0, 7)})`;
const NO_OBSERVER = "ours: no observer";
const EMPTY = "ours: an observer with no hooks";
const OTEL = "ours: toolSpans, no-op tracer";

/**
 * Runs case 11.
 *
 * @param mode Full or smoke.
 * @returns The rows.
 */
export async function observer(mode: Mode): Promise<Row[]> {
  await using baseline = await baselineCore(BEFORE_OBSERVER);
  if (!baseline) console.log(`case 11: ${BEFORE_OBSERVER} is not in this clone; measured without it`);
  const tool = () => oursTool(fileTicket);
  const contenders = [
    { name: FLOOR, dispatch: valibotFloor(fileTicket) },
    ...(baseline ? [{ name: BEFORE, dispatch: before(baseline.core) }] : []),
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
  const at = (name: string) => names.indexOf(name);
  return ratioRows("11. Observation, typed dispatch, valid input (per call)", names, stats, "ns", FLOOR, {
    ...(baseline
      ? {
        [NO_OBSERVER]: (ratio: number, all: readonly number[]) => ({
          text: "≤ 1.02× before the observer",
          met: ratio <= all[at(BEFORE)] * 1.02,
        }),
      }
      : {}),
    [OTEL]: (ratio, all) => ({ text: "≤ 1.10× no observer", met: ratio <= all[at(NO_OBSERVER)] * 1.1 }),
  });
}

/** Case 1's typed tool and call, in the core before the observer. */
function before(core: typeof import("../mod.ts")): (json: string) => Promise<boolean> {
  const tool = core.defineTool({
    name: NAME,
    description: DESCRIPTION,
    inputSchema: valibotInput,
    outputSchema: valibotOutput,
    effects: ["external.mutation"],
    run: fileTicket,
  });
  const tools = new core.ToolSet().register(tool);
  return async (json) => (await tools.call({ id: "call_1", name: NAME, arguments: json })).type === "output";
}
