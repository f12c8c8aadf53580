// A small MCP server for the demo, spoken to over stdio: a read-only echo
// and a word counter with structured output.

// @ts-types="@modelcontextprotocol/sdk/server/index"
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";

const tools: Tool[] = [
  {
    name: "echo",
    description: "Echo a message back.",
    inputSchema: {
      type: "object",
      properties: { message: { type: "string", minLength: 1 } },
      required: ["message"],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: "word_count",
    description: "Count the words of a text.",
    inputSchema: {
      type: "object",
      properties: { text: { type: "string" } },
      required: ["text"],
      additionalProperties: false,
    },
    outputSchema: { type: "object", properties: { words: { type: "integer" } }, required: ["words"] },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
];

const server = new Server({ name: "salvor-demo", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, (request) => {
  const args = request.params.arguments ?? {};
  if (request.params.name === "echo") {
    return { content: [{ type: "text", text: `echo: ${args.message}` }] };
  }
  if (request.params.name === "word_count") {
    const words = String(args.text).split(/\s+/).filter(Boolean).length;
    return { content: [{ type: "text", text: `${words} words` }], structuredContent: { words } };
  }
  return { content: [{ type: "text", text: `No tool named ${request.params.name}` }], isError: true };
});

await server.connect(new StdioServerTransport());
