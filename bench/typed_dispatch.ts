// Case 1: typed dispatch round trip. A model's call arrives as a JSON
// string; it is parsed, validated, the handler runs, the output is
// validated and a terminal comes back. Valid and invalid input, side by side
// with the floor, a hand-written check and the peers' tool layers.

import * as v from "valibot";
import { defineTool, ToolSet } from "../mod.ts";
import { valibotInput, valibotOutput, zodInput, zodOutput } from "./_fixture.ts";
import {
  DESCRIPTION,
  type Dispatch,
  fileTicket,
  handWritten,
  INVALID_ARGUMENTS,
  NAME,
  VALID_ARGUMENTS,
} from "./_ticket.ts";
import { check, compare, type Contender, type Mode, ratioRows, type Row, type Target } from "./_harness.ts";
import {
  aiTool,
  executeTool,
  generateText,
  langchainTool,
  MockLanguageModelV4,
  openaiTool,
  RunContext,
  safeParseJSON,
  stepCountIs,
} from "./_peers.ts";

export const FLOOR = "floor: JSON.parse + Valibot safeParse in/out";
export const OURS = "ours: ToolSet.call";

/** The floor: what a careful user writes with Valibot and no framework. */
export function valibotFloor(handler: typeof fileTicket | ((input: v.InferOutput<typeof valibotInput>) => unknown)) {
  return async (json: string): Promise<boolean> => {
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch {
      return false;
    }
    const input = v.safeParse(valibotInput, value);
    if (!input.success) return false;
    return v.safeParse(valibotOutput, await handler(input.output)).success;
  };
}

/** Ours: a typed tool in a ToolSet, called the way a runtime calls it. */
export function ours(tools = new ToolSet().register(oursTool(fileTicket))): Dispatch {
  return async (json) => (await tools.call({ id: "call_1", name: NAME, arguments: json })).type === "output";
}

/** The typed tool, with a handler of choice. */
export function oursTool(run: (input: v.InferOutput<typeof valibotInput>) => unknown) {
  return defineTool({
    name: NAME,
    description: DESCRIPTION,
    inputSchema: valibotInput,
    outputSchema: valibotOutput,
    effects: ["external.mutation"],
    run: run as typeof fileTicket,
  });
}

function openai(): Dispatch {
  const tool = openaiTool({
    name: NAME,
    description: DESCRIPTION,
    parameters: zodInput,
    outputSchema: zodOutput,
    execute: (input) => fileTicket(input),
  });
  const context = new RunContext();
  // With an output schema the SDK throws on invalid input instead of
  // returning an error string; both are its public behaviour.
  return (json) => tool.invoke(context, json).then(() => true, () => false);
}

function langchain(): Dispatch {
  const tool = langchainTool((input) => fileTicket(input), { name: NAME, description: DESCRIPTION, schema: zodInput });
  return (json) =>
    tool.invoke({ id: "call_1", name: NAME, args: JSON.parse(json), type: "tool_call" }).then(() => true, () => false);
}

function vercelTool() {
  return aiTool({
    description: DESCRIPTION,
    inputSchema: zodInput,
    outputSchema: zodOutput,
    execute: (input) => fileTicket(input),
  });
}

// executeTool's generic signature does not accept a tool typed from zod; the
// call is the same one generateText makes.
const execute = executeTool as (
  args: { tool: unknown; input: unknown; options: { toolCallId: string; messages: unknown[] } },
) => AsyncGenerator<{ type: string }>;

function vercelParts(): Dispatch {
  const tool = vercelTool();
  return async (json) => {
    const parsed = await safeParseJSON({ text: json, schema: tool.inputSchema });
    if (!parsed.success) return false;
    let done = false;
    for await (const part of execute({ tool, input: parsed.value, options: { toolCallId: "call_1", messages: [] } })) {
      if (part.type === "final") done = true;
    }
    return done;
  };
}

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

function vercelGenerateText(): Dispatch {
  const tools = { [NAME]: vercelTool() };
  return async (json) => {
    const model = new MockLanguageModelV4({
      doGenerate: () =>
        Promise.resolve({
          content: [{ type: "tool-call", toolCallId: "call_1", toolName: NAME, input: json }],
          finishReason: { unified: "tool-calls", raw: undefined },
          usage: USAGE,
          warnings: [],
        }) as never,
    });
    const result = await generateText({ model, tools, prompt: "File it.", stopWhen: stepCountIs(1) });
    return result.toolResults.length === 1;
  };
}

const CONTENDERS: readonly (readonly [string, () => Dispatch])[] = [
  ["hand-written check (absolute floor)", handWritten],
  [FLOOR, () => valibotFloor(fileTicket)],
  [OURS, () => ours()],
  ["OpenAI Agents SDK: tool().invoke", openai],
  ["LangChain.js: tool().invoke(tool_call)", langchain],
  ["Vercel AI SDK: safeParseJSON + executeTool", vercelParts],
  ["Vercel AI SDK: generateText, mock model, 1 step", vercelGenerateText],
];

/**
 * Runs case 1 for the valid and the invalid input.
 *
 * @param mode Full or smoke.
 * @returns The rows.
 */
export async function typedDispatch(mode: Mode): Promise<Row[]> {
  const dispatches = CONTENDERS.map(([name, make]) => ({ name, dispatch: make() }));
  for (const { name, dispatch } of dispatches) {
    check(await dispatch(VALID_ARGUMENTS), `${name} refused the valid input`);
    check(!await dispatch(INVALID_ARGUMENTS), `${name} accepted the invalid input`);
  }
  const names = dispatches.map((d) => d.name);
  const rows: Row[] = [];
  for (const [label, json] of [["valid", VALID_ARGUMENTS], ["invalid", INVALID_ARGUMENTS]] as const) {
    const contenders: Contender[] = dispatches.map(({ name, dispatch }) => ({ name, run: () => dispatch(json) }));
    const stats = await compare(contenders, mode);
    const oursAt = names.indexOf(OURS);
    const targets: Record<string, (ratio: number, all: readonly number[]) => Target> = {
      [OURS]: (ratio) => ({ text: "≤ 1.5× floor", met: ratio <= 1.5 }),
    };
    for (const peer of names.slice(oursAt + 1)) {
      targets[peer] = (ratio, all) => ({ text: "ours is faster", met: all[oursAt] < ratio });
    }
    rows.push(...ratioRows(`1. Typed dispatch, ${label} input (per call)`, names, stats, "ns", FLOOR, targets));
  }
  return rows;
}
