// The SDK's v1 line (@modelcontextprotocol/sdk), client side: the 2025-era
// clients the tests compare with and serve. A test-only package, pinned
// here as tests/dev_deps.ts pins the others and locked in tests/deno.lock.

// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/index"
export { Client } from "npm:@modelcontextprotocol/sdk@1.32.2/client/index.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/stdio"
export { StdioClientTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/client/stdio.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/streamableHttp"
export { StreamableHTTPClientTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/client/streamableHttp.js";
export type { Transport } from "npm:@modelcontextprotocol/sdk@1.32.2/shared/transport";
