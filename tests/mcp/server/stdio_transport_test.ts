// The stdio server's own transport: lines read in linear time, a long one
// parsed in paced pieces and delivered in its turn, one past the limit ending
// the connection without being held, and lines handed on a turn's share at a
// time, stdin paused while any wait.

import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { ServerStdioTransport } from "../../../src/mcp/server/_stdio_transport.ts";
import { gapBound, largestGap, largestGapOfEach } from "../../fixtures/event_loop.ts";
import { serveStdio } from "../../../mcp_server.ts";
import { ToolSet } from "../../../mod.ts";

/** A transport on fresh streams, and what it delivered, reported and whether it closed. */
async function opened(maxLineBytes?: number) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const transport = new ServerStdioTransport(stdin, stdout, maxLineBytes);
  const messages: JSONRPCMessage[] = [];
  const errors: string[] = [];
  let closes = 0;
  transport.onmessage = (message) => void messages.push(message);
  transport.onerror = (error) => void errors.push(error.message);
  transport.onclose = () => void closes++;
  await transport.start();
  /** Hands the transport a chunk as stdin would, in the same task. */
  const push = (chunk: Uint8Array | string) => void stdin.emit("data", chunk);
  return { transport, stdin, stdout, messages, errors, closes: () => closes, isClosed: () => closes > 0, push };
}

const encoder = new TextEncoder();

Deno.test("a line over the limit, read 4 KiB at a time, ends the connection at the cost of its length", async () => {
  // The SDK's transport copied the line so far at each read: 10 MiB in 4 KiB reads took 80 s there.
  const { errors, isClosed, push, messages } = await opened();
  const chunk = encoder.encode("a".repeat(4096));
  const started = performance.now();
  push('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"');
  for (let read = 0; read <= 10 * 1024 * 1024 && !isClosed(); read += chunk.length) push(chunk);
  const elapsedMs = performance.now() - started;
  assert.ok(isClosed());
  assert.deepEqual(errors, ["Cannot read the client's message as its line is over 10485760 bytes"]);
  assert.deepEqual(messages, []);
  // Linear reading takes tens of milliseconds here; the bound is far above that and far below the copying's cost.
  assert.ok(elapsedMs < 5_000, `reading 10 MiB in 4 KiB pieces took ${elapsedMs} ms`);
});

Deno.test("a long message is parsed in paced pieces and delivered before the lines that followed it", async () => {
  const { push, messages, errors } = await opened();
  const items = Array.from({ length: 150_000 }, (_, i) => ({ n: i, s: "x" }));
  const long = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: { items } } };
  const short = { jsonrpc: "2.0", id: 2, method: "ping" };
  const bytes = encoder.encode(`${JSON.stringify(long)}\n${JSON.stringify(short)}\n`);
  const { gapMs } = await largestGap(async () => {
    messages.length = 0;
    // As a pipe hands it over: 64 KiB a read, each read a task of its own.
    for (let at = 0; at < bytes.length; at += 65_536) {
      push(bytes.subarray(at, at + 65_536));
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    for (let i = 0; i < 1_000 && messages.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  });
  assert.deepEqual(errors, []);
  assert.deepEqual(messages, [long, short]);
  assert.ok(gapMs < gapBound(), `reading a ${bytes.length}-byte message held the loop ${gapMs} ms`);
});

Deno.test("a line that is no JSON-RPC message is reported and skipped, and the next is read", async () => {
  const { push, messages, errors, isClosed } = await opened();
  push('{"not":"json-rpc"}\nnot json\n\n  \r\n{"jsonrpc":"2.0","id":3,"method":"ping"}\r\n');
  assert.deepEqual(messages, [{ jsonrpc: "2.0", id: 3, method: "ping" }]);
  assert.equal(errors.length, 2);
  assert.match(errors[0], /^Cannot read a line on stdin as it is no JSON-RPC message \(.*\): it starts "\{\\"not/s);
  assert.match(errors[1], /^Cannot read a line on stdin as it is no JSON-RPC message \(.*\): it starts "not json"$/s);
  assert.equal(isClosed(), false);
});

Deno.test("a long line past a bound on a message is answered -32600 as a request, or fails the request it answers", async () => {
  const { push, messages, errors, stdout } = await opened();
  const written: string[] = [];
  stdout.on("data", (chunk: Uint8Array) => void written.push(new TextDecoder().decode(chunk)));
  const values = `[${"0,".repeat(600_000)}0]`;
  const deep = `${"[".repeat(101)}"${"x".repeat(70_000)}"${"]".repeat(101)}`;
  push(`{"jsonrpc":"2.0","id":4,"method":"ping","params":{"v":${values}}}\n`);
  push(`{"jsonrpc":"2.0","result":{"v":${deep}},"id":"s1"}\n`);
  push(`{"jsonrpc":"2.0","method":"notifications/x","params":{"v":${values}}}\n`);
  push(`{"jsonrpc":"2.0","id":5,"method":"ping"}\n`);
  for (let i = 0; i < 1_000 && messages.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(errors.length, 3);
  for (const error of errors) assert.match(error, /^Cannot read a line on stdin as it is no JSON-RPC message \(/);
  assert.equal(messages.length, 2);
  const [answered, ping] = messages as [{ id: string; error: { code: number; message: string } }, JSONRPCMessage];
  assert.equal(answered.id, "s1");
  assert.equal(answered.error.code, -32600);
  assert.match(
    answered.error.message,
    /^Cannot read the message as more than 100 containers longer than 65536 characters nest/,
  );
  assert.deepEqual(ping, { jsonrpc: "2.0", id: 5, method: "ping" });
  assert.equal(written.length, 1);
  const sent = JSON.parse(written[0]);
  assert.equal(sent.id, 4);
  assert.equal(sent.error.code, -32600);
  assert.match(sent.error.message, /^Cannot read the message as .*500000 values/);
});

Deno.test("messages are written a line each, and stdin's end closes the transport once", async () => {
  const { transport, stdin, stdout, closes } = await opened();
  const written: string[] = [];
  stdout.on("data", (chunk: Uint8Array) => void written.push(new TextDecoder().decode(chunk)));
  await transport.send({ jsonrpc: "2.0", id: 1, result: {} });
  assert.deepEqual(written, ['{"jsonrpc":"2.0","id":1,"result":{}}\n']);
  stdin.end();
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(closes(), 1);
  await transport.close();
  assert.equal(closes(), 1);
  await assert.rejects(
    transport.send({ jsonrpc: "2.0", id: 2, result: {} }),
    { message: "Cannot send to the MCP client as the connection is closed" },
  );
  await assert.rejects(transport.start(), { message: "Cannot start the stdio transport as it already started" });
});

/** Waits up to 10 s for `done`. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 2_000 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Hands `bytes` to stdin as a pipe does: `size` bytes a read, each read a task of its own. */
async function pushInReads(push: (chunk: Uint8Array) => void, bytes: Uint8Array, size: number): Promise<void> {
  for (let at = 0; at < bytes.length; at += size) {
    push(bytes.subarray(at, at + size));
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

Deno.test("a flood of pings, in one chunk or a pipe's reads, is answered in order without holding the loop", async () => {
  // The SDK takes each message in 0.1–0.3 ms of promise turns before the next task: a 64 KiB read of pings held the
  // loop for 0.3 s, one chunk of 20,000 for seconds.
  const count = 20_000;
  const pings = Array.from({ length: count }, (_, i) => `{"jsonrpc":"2.0","id":${i + 1},"method":"ping"}\n`).join("");
  const bytes = encoder.encode(pings);
  const serve = (readBytes: number) => async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const ids: number[] = [];
    let text = "";
    stdout.on("data", (chunk: Uint8Array) => {
      const lines = (text + new TextDecoder().decode(chunk)).split("\n");
      text = lines.pop()!;
      for (const line of lines) ids.push(JSON.parse(line).id);
    });
    const running = serveStdio(new ToolSet(), { name: "s", version: "1" }, {
      transport: new ServerStdioTransport(stdin, stdout),
    });
    const initialize = {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } },
    };
    stdin.emit("data", `${JSON.stringify(initialize)}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n`);
    await until(() => ids.length === 1);
    await pushInReads((chunk) => void stdin.emit("data", chunk), bytes, readBytes);
    await until(() => ids.length === count + 1);
    await running.close();
    return ids;
  };
  const { results, gapMs } = await largestGapOfEach([serve(bytes.length), serve(65_536)]);
  for (const ids of results) assert.deepEqual(ids, Array.from({ length: count + 1 }, (_, i) => i));
  assert.ok(gapMs < gapBound(), `answering ${count} pings held the loop ${gapMs} ms`);
});

Deno.test("lines that are no message, flooding in, are each reported without holding the loop", async () => {
  // Each is parsed, found no message and reported: a 16 KiB read of them held the loop for 0.1–0.2 s.
  const read = encoder.encode("1\n".repeat(8_192));
  const { result: errors, gapMs } = await largestGap(async () => {
    const { push, errors } = await opened();
    push(read);
    await until(() => errors.length === 8_192);
    return errors;
  });
  assert.equal(errors.length, 8_192);
  assert.match(errors[0], /^Cannot read a line on stdin as it is no JSON-RPC message \(/);
  assert.ok(gapMs < gapBound(), `reporting 8,192 lines held the loop ${gapMs} ms`);
});

const idOf = (message: object) => "id" in message ? message.id : undefined;

/** A long request and 200 pings after it, as the lines of one write. */
function longThenPings() {
  const items = Array.from({ length: 100_000 }, (_, i) => ({ n: i }));
  const long = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: { items } } };
  const pings = Array.from({ length: 200 }, (_, i) => ({ jsonrpc: "2.0", id: i + 2, method: "ping" }));
  const messages = [long, ...pings];
  return { messages, text: messages.map((message) => `${JSON.stringify(message)}\n`).join("") };
}

Deno.test("what stdin read before its end, a long line and the lines after it, is delivered before the end closes", async () => {
  // The end closed the transport at once, and the long line, still being parsed, and those after it were dropped.
  const { stdin, messages, isClosed } = await opened();
  const sent = longThenPings();
  stdin.end(sent.text);
  await until(isClosed);
  // Ids first: a failing comparison of the long message itself would take long to tell its difference.
  assert.deepEqual(messages.map(idOf), sent.messages.map(idOf));
  assert.deepEqual(messages, sent.messages);
});

Deno.test("stdin is paused while lines wait, so that what the client sends meanwhile stays in the pipe", async () => {
  const { stdin, messages } = await opened();
  const sent = longThenPings();
  stdin.write(sent.text);
  await new Promise((resolve) => setTimeout(resolve, 0));
  // The long line is being parsed.
  assert.equal(messages.length, 0);
  assert.equal(stdin.isPaused(), true);
  await until(() => messages.length === sent.messages.length);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(stdin.isPaused(), false);
  assert.deepEqual(messages.map(idOf), sent.messages.map(idOf));
});

Deno.test("closing stops the work on lines read: a long line's parse and those after it", async () => {
  const { transport, push, messages } = await opened();
  const items = Array.from({ length: 300_000 }, (_, i) => `{"k${i % 7}":${i}}`).join(",");
  const line = `{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":[${items}]}}\n`;
  // The timers the transport sets to pause, counted from here on; the test's own waits are not.
  const original = globalThis.setTimeout;
  const wait = (ms: number) => new Promise((resolve) => original(resolve, ms));
  let timers = 0;
  globalThis.setTimeout = ((...args: Parameters<typeof original>) => {
    timers++;
    return original(...args);
  }) as typeof original;
  try {
    push(encoder.encode(line.repeat(3)));
    await wait(20);
    assert.ok(timers > 0);
    await transport.close();
    await wait(30);
    const afterClose = timers;
    await wait(300);
    assert.equal(timers, afterClose, "the lines were still being parsed after the close");
  } finally {
    globalThis.setTimeout = original;
  }
  assert.deepEqual(messages, []);
});

Deno.test("closed transports leave one listener for stdout's late errors, whatever their number", async () => {
  const stdout = new PassThrough();
  for (let i = 0; i < 12; i++) {
    const transport = new ServerStdioTransport(new PassThrough(), stdout);
    await transport.start();
    await transport.close();
  }
  assert.equal(stdout.listenerCount("error"), 1);
  // A write failing once the client is gone ends nothing.
  stdout.emit("error", new Error("EPIPE"));
});
