// The SDK's v2 client for the server's tests: a runtime package now (the
// MCP client entrypoints are built on it), so it comes through deno.json's
// import map; kept apart from tests/dev_deps.ts because its stdio entry
// reads the environment when it loads, and the core's tests, which import
// tests/dev_deps.ts, run with no permissions at all.

export {
  Client as McpClient,
  ProtocolError as McpProtocolError,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
export { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
