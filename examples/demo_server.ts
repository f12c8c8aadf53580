// A small MCP server for the demo, spoken to over stdio: a read-only echo
// and a word counter with structured output.

import { fromJsonSchema, McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";

const readOnly = { readOnlyHint: true, openWorldHint: false };

/** The demo's tools, on a fresh server for each connection. */
function demoServer(): McpServer {
  const server = new McpServer({ name: "salvor-demo", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.registerTool(
    "echo",
    {
      description: "Echo a message back.",
      inputSchema: fromJsonSchema<{ message: string }>({
        type: "object",
        properties: { message: { type: "string", minLength: 1 } },
        required: ["message"],
        additionalProperties: false,
      }),
      annotations: readOnly,
    },
    ({ message }) => ({ content: [{ type: "text", text: `echo: ${message}` }] }),
  );
  server.registerTool(
    "word_count",
    {
      description: "Count the words of a text.",
      inputSchema: fromJsonSchema<{ text: string }>({
        type: "object",
        properties: { text: { type: "string" } },
        required: ["text"],
        additionalProperties: false,
      }),
      outputSchema: fromJsonSchema<{ words: number }>({
        type: "object",
        properties: { words: { type: "integer" } },
        required: ["words"],
      }),
      annotations: readOnly,
    },
    ({ text }) => {
      const words = String(text).split(/\s+/).filter(Boolean).length;
      return { content: [{ type: "text", text: `${words} words` }], structuredContent: { words } };
    },
  );
  return server;
}

serveStdio(demoServer, { legacy: "serve" });
