// A server's long message never holds the host's event loop for long: it is
// parsed in paced pieces (JSON.parse took 0.1–0.3 s for each of these
// results in one stretch), and an answer that holds more than the SDK can
// check in a short stretch fails its call at once, naming the bound; a
// request of the server's so long is answered at once, saying why. A text
// as long as the default maxMessageBytes allows, copied whole once as it is
// read, holds the host no longer either. Over stdio, and over Streamable
// HTTP with SSE and with JSON bodies.

import assert from "node:assert/strict";
import { type TerminalEvent, ToolSet } from "../../mod.ts";
import { connectMcpServer } from "../../mcp.ts";
import { connectFixture, startHttpFixture } from "./_helpers.ts";
import { WIDE_CHARS_LENGTH } from "./fixtures/_long_results.ts";
import { gapBound, largestGap } from "../fixtures/event_loop.ts";

// A bound against hangs, not a speed claim.
const MAX_GAP_MS: number = gapBound();

/** What each long result must end as. */
const EXPECTED: Record<string, (end: TerminalEvent) => void> = {
  dense: (end) => {
    assert.equal(end.type, "output");
    assert.deepEqual(end.type === "output" && end.result.content, [{ type: "text", text: "dense" }]);
  },
  flood: (end) => assertRefused(end, /it holds more than 500000 values/),
  blocks: (end) => assertRefused(end, /its result holds more than 10000 content blocks: current count is 60000/),
  wide: (end) => assertRefused(end, /an object holds more than 10000 members/),
  "wide-chars": (end) => {
    assert.equal(end.type, "output");
    if (end.type !== "output") return;
    const [text] = end.result.content;
    assert.match(
      text.type === "text" ? text.text : "",
      /^\u{1F600}x+\n\[\.\.\. [\d,]+ more characters cut by the host\]$/u,
    );
    const details = end.result.details as { content: { text: string }[] };
    assert.equal(details.content[0].text.length, WIDE_CHARS_LENGTH);
  },
  structured: (end) => assertRefused(end, /an object holds more than 10000 members/),
  // The server's own long request is answered at once, saying why, rather than left to the server's timeout.
  "ask-wide": (end) => {
    assert.equal(end.type, "output");
    const [text] = end.type === "output" ? end.result.content : [];
    assert.match(
      text?.type === "text" ? text.text : "",
      /^refused: MCP error -32600: Cannot read the server's request as an object holds more than 10000 members/,
    );
  },
};

function assertRefused(end: TerminalEvent, reason: RegExp): void {
  assert.equal(end.type, "failed");
  if (end.type !== "failed") return;
  assert.equal(end.failure.kind, "invalid_output");
  assert.match(end.failure.message, /Cannot read the MCP server's answer as /);
  assert.match(end.failure.message, reason);
}

async function callEach(tools: ToolSet, server: string, transport: string): Promise<void> {
  for (const [name, expect] of Object.entries(EXPECTED)) {
    const { result: end, gapMs } = await largestGap(() =>
      tools.call({ id: name, name: `${server}__${name}`, arguments: {} }, { timeoutMs: 30_000 })
    );
    console.log(`${transport}, "${name}": ${end.type}, largest event-loop gap ${gapMs.toFixed(1)} ms`);
    expect(end);
    assert.ok(gapMs < MAX_GAP_MS, `"${name}" over ${transport} blocked the event loop for ${gapMs} ms`);
  }
  // The connection still answers.
  const echo = await tools.call({ id: "echo", name: `${server}__echo`, arguments: { text: "still here" } });
  assert.deepEqual(echo.type === "output" && echo.result.content, [{ type: "text", text: "still here" }]);
}

Deno.test("a stdio server's long results are read without blocking the event loop, or fail their call naming the bound", async () => {
  await using connection = await connectFixture("long-results");
  await callEach(new ToolSet().register(...connection.tools), "fixture", "stdio");
});

for (const script of ["long-results", "long-results-json"]) {
  Deno.test(`an HTTP server's long results (${script}) are read without blocking the event loop, or fail naming the bound`, async () => {
    await using http = await startHttpFixture(script);
    await using connection = await connectMcpServer({ name: "web", url: http.url });
    await callEach(
      new ToolSet().register(...connection.tools),
      "web",
      script.endsWith("json") ? "HTTP JSON" : "HTTP SSE",
    );
  });
}
