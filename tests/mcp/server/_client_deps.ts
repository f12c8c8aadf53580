// The SDK's v2 client, a test-only package pinned as tests/dev_deps.ts pins
// the others (locked in tests/deno.lock), kept apart from that file because
// its stdio entry reads the environment when it loads, and the core's tests,
// which import tests/dev_deps.ts, run with no permissions at all.

export {
  Client as McpClient,
  ProtocolError as McpProtocolError,
  StreamableHTTPClientTransport,
} from "npm:@modelcontextprotocol/client@2.4.0";
export { StdioClientTransport } from "npm:@modelcontextprotocol/client@2.4.0/stdio";
