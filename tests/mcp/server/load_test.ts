// Load on the fetch handler in Deno.serve on loopback: 2,000 concurrent
// calls all answered, none lost, memory bounded; and a flood past the bound
// on calls in flight answered with retryable tool errors, not a crash.

import assert from "node:assert/strict";
import { defineJsonTool, ToolSet } from "../../../mod.ts";
import { postJsonRpc, serveHttp } from "./_connect.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function slowEcho(ms: number) {
  return defineJsonTool({
    name: "echo",
    description: "Answers its number after a pause.",
    inputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
    effects: [],
    run: async (input: { n: number }) => {
      await sleep(ms);
      return { n: input.n };
    },
  });
}

function callEcho(url: URL, n: number) {
  return postJsonRpc(url, { jsonrpc: "2.0", id: n, method: "tools/call", params: { name: "echo", arguments: { n } } });
}

Deno.test("2,000 concurrent calls are all answered, each with its own answer, and memory stays bounded", async () => {
  await using served = serveHttp(new ToolSet().register(slowEcho(20)), { maxCallsInFlight: 2_048 });
  await callEcho(served.url, -1); // warm up
  const before = Deno.memoryUsage().rss;
  const answers = await Promise.all(Array.from({ length: 2_000 }, (_, n) => callEcho(served.url, n)));
  const grown = Deno.memoryUsage().rss - before;
  const wrong = answers.filter(({ status, message }, n) => {
    const result = message.result as { content?: { text: string }[]; isError?: boolean } | undefined;
    return status !== 200 || message.id !== n || result?.isError || result?.content?.[0].text !== `{"n":${n}}`;
  });
  assert.deepEqual(wrong.slice(0, 3), []);
  // A generous bound against a leak or a buffer per call that is never freed, not a measure.
  assert.ok(grown < 512 * 1024 * 1024, `RSS grew by ${Math.round(grown / 1024 / 1024)} MiB`);
});

Deno.test("a flood past maxCallsInFlight gets retryable tool errors, and the server serves on", async () => {
  await using served = serveHttp(new ToolSet().register(slowEcho(200)), { maxCallsInFlight: 16 });
  const answers = await Promise.all(Array.from({ length: 500 }, (_, n) => callEcho(served.url, n)));
  let ran = 0;
  let refused = 0;
  for (const { status, message } of answers) {
    assert.equal(status, 200);
    const result = message.result as { isError?: boolean; _meta?: Record<string, { retryable?: boolean }> };
    if (result.isError) {
      assert.equal(result._meta?.["salvor/failure"]?.retryable, true);
      refused++;
    } else {
      ran++;
    }
  }
  assert.equal(ran + refused, 500);
  assert.ok(ran >= 16 && refused > 0, `${ran} ran, ${refused} refused`);
  const after = await callEcho(served.url, 9_999);
  assert.equal((after.message.result as { isError?: boolean }).isError, undefined);
});
