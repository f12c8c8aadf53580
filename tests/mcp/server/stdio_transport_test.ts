// The stdio server's own transport: lines read in linear time, a long one
// parsed in paced pieces and delivered in its turn, one past the limit ending
// the connection without being held.

import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { ServerStdioTransport } from "../../../src/mcp/server/_stdio_transport.ts";
import { gapBound, largestGap } from "../../fixtures/event_loop.ts";

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
