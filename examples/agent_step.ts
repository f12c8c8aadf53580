// One agent step, the way a new user writes it: three tools, a model's turn
// read from OpenAI Chat Completions `tool_calls` and from Anthropic `tool_use`
// blocks, run in waves with a retry, a write parked for a person's approval,
// stored as JSON, resumed in a fresh ToolSet, and answered in each provider's
// shape. The models are scripted, so it runs offline with no permissions:
//
//   deno run examples/agent_step.ts
//
// The glue a user writes is the two functions under "The glue": 15 lines, signatures and braces included.

import {
  approvalByEffects,
  type BatchResult,
  defineJsonTool,
  HandlerError,
  resumeBatch,
  RetryPolicy,
  runBatch,
  ToolSet,
} from "../mod.ts";
import {
  anthropicCalls,
  anthropicResults,
  openAIChatCalls,
  openAIChatResults,
  toAnthropicTool,
  toOpenAITool,
} from "../providers.ts";

// The tools: two reads (the search fails once, as a busy index does) and a write.
const PATH = { type: "object", properties: { path: { type: "string" } }, required: ["path"] } as const;
let searchesToFail = 1;
const tools = () =>
  new ToolSet({ approve: approvalByEffects() }).register(
    defineJsonTool<{ query: string }>({
      name: "search",
      description: "Search the notes.",
      inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
      effects: ["fs.read"],
      run: ({ query }) => {
        if (searchesToFail-- > 0) throw new HandlerError("the index is busy");
        return { hits: [`notes/${query}.md`] };
      },
    }),
    defineJsonTool<{ path: string }>({
      name: "read_file",
      description: "Read a note.",
      inputSchema: PATH,
      effects: ["fs.read"],
      run: ({ path }) => ({ text: `Three ideas in ${path}.` }),
    }),
    defineJsonTool<{ path: string; text: string }>({
      name: "write_file",
      description: "Write a note.",
      inputSchema: {
        ...PATH,
        properties: { ...PATH.properties, text: { type: "string" } },
        required: ["path", "text"],
      },
      effects: ["fs.write"],
      run: ({ path, text }) => ({ path, bytes: text.length }),
    }),
  );

// Scripted models in place of `client.chat.completions.create` and `client.messages.create`.
const TURN = [
  ["search", { query: "ideas" }],
  ["read_file", { path: "notes/ideas.md" }],
  ["write_file", { path: "summary.md", text: "Three ideas." }],
] as const;
const openAIModel = (_request: { messages: unknown[]; tools: unknown[] }) => ({
  role: "assistant" as const,
  content: null,
  tool_calls: TURN.map(([name, args], i) => ({
    id: `call_${i + 1}`,
    type: "function" as const,
    function: { name, arguments: JSON.stringify(args) },
  })),
});
const anthropicModel = (_request: { messages: unknown[]; tools: unknown[] }) => ({
  role: "assistant" as const,
  content: TURN.map(([name, input], i) => ({ type: "tool_use" as const, id: `toolu_${i + 1}`, name, input })),
});

// What the host does with a parked call: here a person says yes to every one, and the record is kept as a string.
const retry = new RetryPolicy({ baseDelayMs: 10 });
const store = (batch: BatchResult) => JSON.stringify(batch.record);
const approveAll = (batch: BatchResult) =>
  Object.fromEntries(
    batch.results.filter((r) => r.terminal.type === "suspended").map((r) => [r.callId, { approved: true }]),
  );
const show = (label: string, batch: BatchResult) =>
  console.log(
    `${label}: ${batch.results.map((r) => `${r.callId} ${r.terminal.type} (${r.attempts} attempts)`).join(", ")}`,
  );

// The glue (15 lines).
async function openAIStep(messages: unknown[]): Promise<unknown[]> {
  const reply = openAIModel({ messages, tools: tools().descriptors().map((d) => toOpenAITool(d).tool) });
  const { calls, projection } = openAIChatCalls(reply);
  const batch = await runBatch(tools(), calls, { projection, retry });
  show("openai, first run", batch);
  const turn = await resumeBatch(tools(), JSON.parse(store(batch)), approveAll(batch));
  return [...messages, reply, ...openAIChatResults(turn.results).messages];
}
async function anthropicStep(messages: unknown[]): Promise<unknown[]> {
  const reply = anthropicModel({ messages, tools: tools().descriptors().map((d) => toAnthropicTool(d).tool) });
  const batch = await runBatch(tools(), anthropicCalls(reply).calls, { retry });
  show("anthropic, first run", batch);
  const turn = await resumeBatch(tools(), JSON.parse(store(batch)), approveAll(batch));
  return [...messages, reply, anthropicResults(turn.results).message];
}

const task = [{ role: "user", content: "Summarise my ideas into summary.md." }];
console.log(JSON.stringify((await openAIStep(task)).slice(2)));
searchesToFail = 1;
console.log(JSON.stringify((await anthropicStep(task)).slice(2)));
