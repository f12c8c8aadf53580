// A stdio server that floods its stdout with short lines never holds the
// host's event loop for long: the transport hands lines on a turn's share at
// a time, the server's stdout paused while any wait, and in the order they
// came, so the call's answer, written after the flood, still ends the call.

import assert from "node:assert/strict";
import { ToolSet } from "../../mod.ts";
import { connectMcpServer } from "../../mcp.ts";
import { serverEnv, TEST_LOCK } from "./_helpers.ts";
import { gapBound, largestGap } from "../fixtures/event_loop.ts";
import { MAX_WAITING_WRITES } from "../../src/mcp/client/_stdio_transport.ts";

const FLOOD = new URL("./fixtures/flood_server.ts", import.meta.url).pathname;

// Each line took 0.01–0.03 ms of the SDK's work in one stretch: 20,000 held the loop for 0.2–0.6 s. The host's
// answers to 20,000 pings queued on the server's stdin, their callbacks run in one stretch once it read them.
for (const kind of ["message", "stray", "garbage", "ping"]) {
  Deno.test(`a stdio server's 20,000 lines (${kind}) are taken in order without holding the loop`, async () => {
    let errors = 0;
    let refused = 0;
    await using connection = await connectMcpServer({
      name: "flood",
      command: Deno.execPath(),
      args: ["run", TEST_LOCK, "--no-prompt", FLOOD, kind],
      env: serverEnv(),
      onError: (error) => {
        errors++;
        if (/Cannot answer the MCP server's request "p\d+" as it has not read/.test(String(error))) refused++;
      },
    });
    const tools = new ToolSet().register(...connection.tools);
    const { result: end, gapMs } = await largestGap(() =>
      tools.call({ id: "f", name: "flood__flood", arguments: {} }, { timeoutMs: 30_000 })
    );
    assert.deepEqual(end.type === "output" && end.result.content, [{ type: "text", text: "flooded" }]);
    if (kind === "stray" || kind === "garbage") assert.ok(errors >= 20_000, `${errors} reported`);
    // The server reads its stdin only once its flood is written: answers past the pipe's share and the bound are refused.
    if (kind === "ping") {
      assert.ok(refused > 0 && refused === errors && errors <= 20_000 - MAX_WAITING_WRITES, `${refused}`);
    }
    assert.ok(gapMs < gapBound(), `20,000 lines (${kind}) held the loop ${gapMs} ms`);
  });
}
