// Hostile and broken MCP servers: none of them may stop the host, exhaust
// its memory, or fool the model or the host's own tools. Each scenario is
// bounded in time and size, so the suite is safe to run anywhere.

import assert from "node:assert/strict";
import { defineJsonTool, ToolSet } from "../../mod.ts";
import { compileSchema, type DynTool } from "../../dyn.ts";
import { connectMcpServer as connectHttp } from "../../mcp_http.ts";
import { connectMcpServer, McpConnectionError, type McpToolsChange } from "../../mcp.ts";
import { HEAD_CHARS, LineReader } from "../../src/mcp/_line_reader.ts";
import { boundedFetch } from "../../src/mcp/client/_http_bodies.ts";
import { ParkedMessages } from "../../src/mcp/client/_paced_message.ts";
import type { TopLevel } from "../../src/mcp/_paced_json.ts";
import {
  envelopeOf,
  headOfLong,
  type LongMessage,
  opensObject,
  toldAtEnd,
  toldByHead,
} from "../../src/mcp/client/_long_message.ts";
import { watchedFetch } from "../../src/mcp/client/_http_watch.ts";
import { cutNote } from "../../src/mcp/client/_content.ts";
import {
  connectFixture,
  livingChildren,
  rawServer,
  rawTool,
  servingSse,
  startHttpFixture,
  TEST_LOCK,
} from "./_helpers.ts";
import { fc } from "../dev_deps.ts";
import { freshCopyMs, gapBound, largestGap } from "../fixtures/event_loop.ts";

const MiB = 1024 * 1024;
/** The mark on an error answer that stands in for an answer the host could not read. */
const UNREAD = { "io.salvor/unread": true };

function text(end: Awaited<ReturnType<ToolSet["call"]>>, part = 0): string {
  const content = end.type === "output" ? end.result.content[part] : undefined;
  return content?.type === "text" ? content.text : "";
}

function failure(end: Awaited<ReturnType<ToolSet["call"]>>) {
  assert.equal(end.type, "failed", JSON.stringify(end).slice(0, 300));
  return end.type === "failed" ? end.failure : undefined!;
}

// 1. Streamable HTTP reads no message past maxMessageBytes.

for (const script of ["endless-sse", "endless-json"]) {
  Deno.test(`an HTTP server whose answer never ends (${script}) fails that call alone at maxMessageBytes, with bounded memory`, async () => {
    await using http = await startHttpFixture(script);
    await using server = await connectHttp({ name: "web", url: http.url });
    const tools = server.register(new ToolSet());
    const rss = Deno.memoryUsage().rss;
    const started = Date.now();
    // A call in flight beside the endless answer, on the same connection.
    const beside = tools.call({ id: "2", name: "web__slow", arguments: {} });
    const end = await tools.call({ id: "1", name: "web__echo", arguments: { text: "x" } }, { timeoutMs: 60_000 });
    const grew = Deno.memoryUsage().rss - rss;
    // Generous bounds: the server would send 1 GiB, and the unbounded client grew by gigabytes.
    assert.ok(Date.now() - started < 30_000, `${Date.now() - started} ms`);
    assert.ok(grew < 256 * MiB, `RSS grew by ${Math.round(grew / MiB)} MiB`);
    const { kind, message, modelText, diagnostics } = failure(end);
    // Not retried: the answer would be as long again.
    assert.equal(kind, "invalid_output");
    assert.match(
      message,
      /Cannot read the MCP server's answer as it is longer than 6291456 bytes \(the maxMessageBytes limit\)$/,
    );
    assert.equal(
      modelText,
      'The tool "web__echo" returned a result this host cannot read; it may have had side effects.',
    );
    assert.match(diagnostics?.[0].message ?? "", /longer than 6291456 bytes/);
    // The connection goes on: the call beside it and the next one are answered.
    assert.equal(server.closed, false);
    assert.equal(text(await beside), "done");
    assert.equal(text(await tools.call({ id: "3", name: "web__slow", arguments: {} })), "done");
  });
}

Deno.test("maxMessageBytes is configurable over HTTP", async () => {
  await using http = await startHttpFixture("endless-sse");
  await using server = await connectHttp({ name: "web", url: http.url, maxMessageBytes: MiB });
  const end = await server.register(new ToolSet()).call({ id: "1", name: "web__echo", arguments: {} });
  assert.match(failure(end).message, /longer than 1048576 bytes \(the maxMessageBytes limit\)/);
});

Deno.test("an HTTP server's tool listing past maxMessageBytes fails connecting, naming the limit", async () => {
  await using http = await startHttpFixture("default");
  // Its initialize answer is shorter than 300 bytes; the listing of its three tools is longer.
  await assert.rejects(
    connectHttp({ name: "web", url: http.url, maxMessageBytes: 300 }),
    (error) =>
      error instanceof McpConnectionError &&
      /^Cannot connect to MCP server "web" as listing its tools failed: Cannot read the MCP server's answer as it is longer than 300 bytes \(the maxMessageBytes limit\)$/
        .test(error.message),
  );
});

Deno.test("connectMcpServer() refuses a maxMessageBytes that is not a whole number from 1", async () => {
  await assert.rejects(
    connectHttp({ name: "web", url: "http://127.0.0.1:9/mcp", maxMessageBytes: 0 }),
    (error) => error instanceof RangeError && /maxMessageBytes must be a whole number from 1/.test(error.message),
  );
});

Deno.test("the HTTP byte cap counts each SSE event apart, whatever its line endings", async () => {
  const events = (ending: string, lines: number) =>
    Array.from({ length: lines }, () => `data: ${"x".repeat(94)}${ending}`).join("") + ending;
  const read = async (body: string) => {
    let problem: string | undefined;
    const serve: typeof fetch = () =>
      Promise.resolve(new Response(body, { headers: { "content-type": "text/event-stream" } }));
    const response = await boundedFetch(serve, {
      maxBytes: 1_000,
      onTooLarge: (why) => problem = why,
      parked: new ParkedMessages(),
      answer: () => assert.fail("nothing is to be answered"),
      report: () => assert.fail("nothing is skipped"),
    })("http://127.0.0.1/mcp");
    const text = await response.text().catch((error) => `error: ${error.message}`);
    return { problem, text };
  };
  for (const ending of ["\n", "\r\n", "\r"]) {
    // Twenty events of about 100 bytes each: many messages, none too long.
    const many = await read(events(ending, 1).repeat(20));
    assert.equal(many.problem, undefined, JSON.stringify(ending));
    // One event of twenty 100-byte data lines: one message, too long.
    const one = await read(events(ending, 20));
    assert.match(one.problem ?? "", /longer than 1000 bytes/, JSON.stringify(ending));
    assert.match(one.text, /^error: The MCP server sent a message longer than 1000 bytes/);
  }
});

Deno.test("the HTTP byte cap refuses a stream exactly when one of its SSE events is longer than the cap, however chunks cut it", async () => {
  const encoder = new TextEncoder();
  // An event: lines of text (one-, two- and three-byte characters) with one line end throughout, and the empty
  // line that ends it. One kind of line end an event, so that a "\r" and the "\n" after it never read as one.
  const line = fc.string({ unit: fc.constantFrom("d", "a", ":", " ", "é", "€"), minLength: 1, maxLength: 60 });
  const event = fc.record({
    lines: fc.array(line, { minLength: 1, maxLength: 12 }),
    end: fc.constantFrom("\n", "\r\n", "\r"),
  });
  const stream = fc.record({
    events: fc.array(event, { maxLength: 8 }),
    // Lines the stream ends on without the empty line that would end their event.
    cut: fc.array(line, { maxLength: 3 }),
    cap: fc.integer({ min: 20, max: 800 }),
    sizes: fc.array(fc.integer({ min: 1, max: 97 }), { minLength: 1, maxLength: 10 }),
  });
  await fc.assert(
    fc.asyncProperty(stream, async ({ events, cut, cap, sizes }) => {
      const texts = events.map(({ lines, end }) => lines.map((text) => text + end).join("") + end);
      const rest = cut.map((text) => `${text}\n`).join("");
      const bytes = encoder.encode(texts.join("") + rest);
      // The longest event, its line ends counted, and the one the stream cut short.
      const longest = Math.max(0, ...[...texts, rest].map((text) => encoder.encode(text).length));
      const chunks: Uint8Array[] = [];
      for (let at = 0, i = 0; at < bytes.length; at += sizes[i++ % sizes.length]) {
        chunks.push(bytes.slice(at, at + sizes[i % sizes.length]));
      }
      let problem: string | undefined;
      const response = await boundedFetch(servingSse(chunks), {
        maxBytes: cap,
        onTooLarge: (why) => problem = why,
        parked: new ParkedMessages(),
        answer: () => assert.fail("nothing is to be answered"),
        report: () => assert.fail("nothing is skipped"),
      })("http://127.0.0.1/mcp");
      const read = await response.arrayBuffer().then((body) => new Uint8Array(body), (error: Error) => error);
      if (longest > cap) {
        assert.ok(read instanceof RangeError, `an event of ${longest} bytes passed a cap of ${cap}`);
        assert.match(problem ?? "", new RegExp(`longer than ${cap} bytes`));
      } else {
        assert.deepEqual(read, bytes, "a stream within the cap passes as it came");
        assert.equal(problem, undefined);
      }
    }),
    {
      numRuns: 1_500,
      // An event ended by "\r\n" whose "\n" opens the next chunk, one byte over the cap: that "\n" was counted
      // with the next event, so the event passed (and a next one at the cap would have been refused).
      examples: [[{
        events: [
          { lines: ["ddd€€édd", "dd€€€d€éddéd", "€", "d€ééddd", "é€€dé"], end: "\r\n" },
          { lines: ["d".repeat(70)], end: "\n" },
        ],
        cut: [],
        cap: 72,
        sizes: [1],
      }], [{
        events: [{ lines: ["ddd€€édd", "dd€€€d€éddéd", "€", "d€ééddd", "é€€dé"], end: "\r\n" }],
        cut: [],
        cap: 71,
        sizes: [1],
      }]],
    },
  );
});

Deno.test("past the byte cap, the response to a POST answers each request it carries with an error naming the limit, and the connection goes on", async () => {
  const encoder = new TextEncoder();
  const cap = 1_000;
  const progress = 'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\n';
  // Past the cap, and no object: nothing tells what it is, so the response is cut there.
  const long = `event: message\ndata: "${"x".repeat(2 * cap)}"\n\n`;
  const answer = (id: number | string) => ({
    jsonrpc: "2.0",
    id,
    error: {
      code: -32603,
      message: `Cannot read the MCP server's answer as it is longer than ${cap} bytes (the maxMessageBytes limit)`,
      data: UNREAD,
    },
  });
  const post = (...messages: unknown[]): RequestInit => ({
    method: "POST",
    body: JSON.stringify(messages.length === 1 ? messages[0] : messages),
  });
  const call = (id: number | string) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo" } });
  const notification = { jsonrpc: "2.0", method: "notifications/initialized" };
  const read = async (chunks: string[], type: string, init: RequestInit) => {
    let problem: string | undefined;
    let cancelled = false;
    const serve: typeof fetch = () =>
      Promise.resolve(
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
            },
            cancel: () => void (cancelled = true),
          }),
          { headers: { "content-type": type } },
        ),
      );
    const response = await boundedFetch(serve, {
      maxBytes: cap,
      onTooLarge: (why) => problem = why,
      parked: new ParkedMessages(),
      answer: () => assert.fail("nothing is to be answered"),
      report: () => assert.fail("nothing is skipped"),
    })("http://127.0.0.1/mcp", init);
    const text = await response.text().catch((error) => error);
    return { problem, text, cancelled };
  };
  // An SSE stream: the event before the long one passes, in the same chunk or not; the stand-in follows, and the
  // server's stream (which would go on) is cancelled.
  for (const chunks of [[progress + long], [progress, long.slice(0, 600), long.slice(600)]]) {
    const sse = await read(chunks, "text/event-stream", post(call(7)));
    assert.equal(sse.text, `${progress}event: message\ndata: ${JSON.stringify(answer(7))}\n\n`);
    assert.equal(sse.problem, undefined);
    assert.equal(sse.cancelled, true);
  }
  // A JSON body, for a POST of two requests and a notification: an answer each request.
  const json = await read(
    [`[{"jsonrpc":"2.0","id":"a","result":"${"x".repeat(2 * cap)}`],
    "application/json",
    post(call("a"), notification, call(8)),
  );
  assert.deepEqual(JSON.parse(json.text), [answer("a"), answer(8)]);
  assert.equal(json.problem, undefined);
  // A POST of no request has nothing to answer: its body errors, and the connection goes on.
  const none = await read([long], "text/event-stream", post(notification));
  assert.ok(none.text instanceof RangeError, String(none.text));
  assert.equal(none.problem, undefined);
  // The session's own stream answers nothing of the host's: the connection ends.
  const own = await read([progress + long], "text/event-stream", { method: "GET" });
  assert.ok(own.text instanceof RangeError, String(own.text));
  assert.match(own.problem ?? "", /^sent a message longer than 1000 bytes \(the maxMessageBytes limit\)$/);
});

const ASKS: [string, (x: string) => string, number][] = [
  // As the SDK's server writes a request: its method first, its id last.
  ["its method first", (x) => `{"method":"sampling/createMessage","params":{"text":"${x}"},"jsonrpc":"2.0","id":0}`, 0],
  // Its id first, the very id of the POST's request, and its method after its params: its params tell a request.
  ["its id first and its method last", (x) => `{"jsonrpc":"2.0","id":7,"params":{"text":"${x}"},"method":"ping"}`, 7],
];
for (const [order, write, id] of ASKS) {
  Deno.test(`in the response to a POST, a request of the server's past the byte cap (${order}) is answered and skipped; the answer after it passes`, async () => {
    const encoder = new TextEncoder();
    const cap = 1_000;
    const ask = `event: message\ndata: ${write("x".repeat(2 * cap))}\n\n`;
    const done = 'event: message\ndata: {"jsonrpc":"2.0","id":7,"result":{"content":[]}}\n\n';
    const bytes = encoder.encode(ask + done);
    for (const size of [1, 333, bytes.length]) {
      const answered: unknown[] = [];
      const reported: string[] = [];
      const response = await boundedFetch(servingSse(cutInto(bytes, [size])), {
        maxBytes: cap,
        onTooLarge: () => assert.fail("the connection goes on"),
        parked: new ParkedMessages(),
        answer: (reply) => answered.push(reply),
        report: (error) => reported.push(error.message),
      })("http://127.0.0.1/mcp", {
        method: "POST",
        body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "ask" } }),
      });
      assert.equal(await response.text(), done, `chunks of ${size}`);
      assert.deepEqual(answered, [refusedRequest(id, cap)]);
      assert.equal(reported.length, 1);
    }
  });
}

Deno.test("on the session's own stream, an event past the byte cap is skipped to its end and told apart by its head and tail", async () => {
  const encoder = new TextEncoder();
  const cap = 1_000;
  const x = "x".repeat(2 * cap);
  const why = `it is longer than ${cap} bytes (the maxMessageBytes limit)`;
  const short = 'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\n';
  const stream = [
    short,
    // An answer, its id last as the SDK's server writes it: an error answer stands in for it.
    `event: message\nid: e1\ndata: {"result":{"text":"${x}"},"jsonrpc":"2.0","id":7}\n\n`,
    // A request of the server's: answered with an error, and reported.
    `data: {"method":"sampling/createMessage","params":{"text":"${x}"},"jsonrpc":"2.0","id":3}\r\n\r\n`,
    // A notification: dropped, and reported.
    `event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"data":"${x}"}}\n\n`,
    // An event of another type: the transport reads past it.
    `event: ping\ndata: "${x}"\n\n`,
    short,
    // An object that names no id: a call may wait for it, so the stream errors.
    `data: {"result":"${x}"}\n\n`,
    short,
  ].join("");
  const bytes = encoder.encode(stream);
  for (const size of [1, 97, 4_096, bytes.length]) {
    const answered: unknown[] = [];
    const reported: string[] = [];
    let problem: string | undefined;
    const chunks: Uint8Array[] = [];
    for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.slice(at, at + size));
    const response = await boundedFetch(servingSse(chunks), {
      maxBytes: cap,
      onTooLarge: (phrase) => problem = phrase,
      parked: new ParkedMessages(),
      answer: (message) => answered.push(message),
      report: (error) => reported.push(error.message),
    })("http://127.0.0.1/mcp", { method: "GET" });
    const reader = response.body!.getReader();
    let text = "";
    const decoder = new TextDecoder();
    const error = await (async () => {
      for (;;) {
        const read = await reader.read();
        if (read.done) return undefined;
        text += decoder.decode(read.value, { stream: true });
      }
    })().catch((error: Error) => error);
    const standIn = {
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32603, message: `Cannot read the MCP server's answer as ${why}`, data: UNREAD },
    };
    assert.equal(
      text.replaceAll("\r", "").replace(/\n{3,}/g, "\n\n"),
      `${short}event: message\ndata: ${JSON.stringify(standIn)}\n\n${short}`,
      `chunks of ${size}`,
    );
    assert.deepEqual(answered, [refusedRequest(3, cap)]);
    assert.equal(reported.length, 2);
    assert.match(
      reported[0],
      /^Skipped a message of the server's as it is longer than 1000 bytes .*sampling\/createMessage/,
    );
    assert.match(reported[1], /^Skipped a message of the server's as .*notifications\/message/);
    assert.ok(error instanceof RangeError, String(error));
    assert.equal(problem, `sent a message longer than ${cap} bytes (the maxMessageBytes limit)`);
  }
});

Deno.test("on the session's own stream, an event past the byte cap whose head names its id is answered for before it ends", async () => {
  const encoder = new TextEncoder();
  const cap = 1_000;
  const answered: unknown[] = [];
  const reported: string[] = [];
  // A request of the server's with its id first, then an endless payload: the stream stays open.
  let more: ReadableStreamDefaultController<Uint8Array> | undefined;
  const serve: typeof fetch = () =>
    Promise.resolve(
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            more = controller;
            controller.enqueue(
              encoder.encode('data: {"jsonrpc":"2.0","id":9,"method":"sampling/createMessage","params":{"text":"'),
            );
            controller.enqueue(encoder.encode("x".repeat(3 * cap)));
          },
        }),
        { headers: { "content-type": "text/event-stream" } },
      ),
    );
  const response = await boundedFetch(serve, {
    maxBytes: cap,
    onTooLarge: () => assert.fail("the event can be told apart"),
    parked: new ParkedMessages(),
    answer: (message) => answered.push(message),
    report: (error) => reported.push(error.message),
  })("http://127.0.0.1/mcp", { method: "GET" });
  const reader = response.body!.getReader();
  // The transport reads on; nothing comes out in place of a request, so the read waits for the stream's next event.
  const next = reader.read();
  for (let i = 0; i < 50 && answered.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(answered, [refusedRequest(9, cap)]);
  assert.equal(reported.length, 1);
  // Its end, when it comes, adds nothing; the event after it passes.
  const short = 'data: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\n';
  more!.enqueue(encoder.encode(`"}}\n\n${short}`));
  more!.close();
  const read = await next;
  assert.equal(new TextDecoder().decode(read.value), short);
  assert.equal((await reader.read()).done, true);
  assert.equal(answered.length, 1);
  assert.equal(reported.length, 1);
});

/** The error answer a request of the server's past the byte cap `cap` is refused with. */
function refusedRequest(id: number, cap: number): unknown {
  const message = `Cannot read the server's request as it is longer than ${cap} bytes (the maxMessageBytes limit)`;
  return { jsonrpc: "2.0", id, error: { code: -32600, message } };
}

/** The data of each event of an SSE stream's text, as the transport's parser reads it. */
function sseData(text: string): string[] {
  const events: string[] = [];
  let data: string[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === "") {
      if (data.length > 0) events.push(data.join("\n"));
      data = [];
    } else if (line.startsWith("data:")) data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
  }
  return events;
}

/** The byte cap of the long-message properties, and why a message past it is not read. */
const LONG_CAP = 300;
const LONG_WHY = `it is longer than ${LONG_CAP} bytes (the maxMessageBytes limit)`;

/**
 * Messages as servers write them, the id last (as the TypeScript SDK does) or first (as Python's does), short, past
 * `LONG_CAP`, or longer than the head a reader keeps of one, each with a line ending.
 */
function longMessages(ends: readonly string[]) {
  const unit = fc.constantFrom("x", "é", "€", " ");
  const filler = fc.oneof(
    fc.string({ unit, minLength: 1, maxLength: 60 }),
    fc.string({ unit, minLength: LONG_CAP, maxLength: 2 * LONG_CAP, size: "max" }),
    fc.string({ unit, minLength: HEAD_CHARS, maxLength: HEAD_CHARS + 400, size: "max" }),
  );
  const idFirst = fc.boolean();
  const message = fc.oneof(
    fc.record({ kind: fc.constant("answer" as const), id: fc.nat(1_000), idFirst, text: filler }),
    fc.record({ kind: fc.constant("request" as const), id: fc.nat(1_000), idFirst, text: filler }),
    fc.record({ kind: fc.constant("notification" as const), text: filler }),
  );
  return fc.record({
    messages: fc.array(fc.record({ message, end: fc.constantFrom(...ends), typed: fc.boolean() }), {
      minLength: 1,
      maxLength: 6,
    }),
    sizes: fc.array(fc.integer({ min: 1, max: 2 * LONG_CAP + 100 }), { minLength: 1, maxLength: 6 }),
  });
}

type LongCase =
  | { kind: "answer" | "request"; id: number; idFirst: boolean; text: string }
  | { kind: "notification"; text: string };

function serverText(m: LongCase): string {
  if (m.kind === "notification") {
    return JSON.stringify({ method: "notifications/message", params: { text: m.text }, jsonrpc: "2.0" });
  }
  const body = m.kind === "answer" ? { result: { text: m.text } } : { method: "ping", params: { text: m.text } };
  return JSON.stringify(m.idFirst ? { jsonrpc: "2.0", id: m.id, ...body } : { ...body, jsonrpc: "2.0", id: m.id });
}

/** What is to come of a message past the cap: its stand-in, the server's reply, or nothing (a note). */
function pastCap(m: LongCase): { standIn?: unknown; reply?: unknown } {
  if (m.kind === "answer") {
    return {
      standIn: {
        jsonrpc: "2.0",
        id: m.id,
        error: { code: -32603, message: `Cannot read the MCP server's answer as ${LONG_WHY}`, data: UNREAD },
      },
    };
  }
  if (m.kind === "notification") return {};
  return { reply: refusedRequest(m.id, LONG_CAP) };
}

/** Bytes cut into chunks of the sizes given, in turn. */
function cutInto(bytes: Uint8Array, sizes: readonly number[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    chunks.push(bytes.slice(at, at + sizes[i % sizes.length]));
    at += sizes[i % sizes.length];
  }
  return chunks;
}

Deno.test("on the session's own stream, every event past the byte cap is told apart and the others pass, however chunks cut them", async () => {
  const encoder = new TextEncoder();
  await fc.assert(
    fc.asyncProperty(longMessages(["\n", "\r\n", "\r"]), async ({ messages, sizes }) => {
      const texts = messages.map(({ message }) => serverText(message));
      const events = messages.map(({ end, typed }, i) =>
        `${typed ? `event: message${end}` : ""}data: ${texts[i]}${end}${end}`
      );
      const answered: unknown[] = [];
      let reports = 0;
      const response = await boundedFetch(servingSse(cutInto(encoder.encode(events.join("")), sizes)), {
        maxBytes: LONG_CAP,
        onTooLarge: () => assert.fail("every event can be told apart"),
        parked: new ParkedMessages(),
        answer: (reply) => answered.push(reply),
        report: () => reports++,
      })("http://127.0.0.1/mcp", { method: "GET" });
      const expected: string[] = [];
      const replies: unknown[] = [];
      messages.forEach(({ message }, i) => {
        if (encoder.encode(events[i]).length <= LONG_CAP) return expected.push(texts[i]);
        const { standIn, reply } = pastCap(message);
        if (standIn !== undefined) expected.push(JSON.stringify(standIn));
        if (reply !== undefined) replies.push(reply);
      });
      assert.deepEqual(sseData(await response.text()), expected);
      assert.deepEqual(answered, replies);
      assert.equal(reports, messages.length - expected.length);
    }),
    { numRuns: 300 },
  );
});

Deno.test("over stdio, every line past the byte cap is told apart and the others pass, however chunks cut them", async () => {
  const encoder = new TextEncoder();
  const pause = () => Promise.resolve();
  await fc.assert(
    fc.asyncProperty(longMessages(["\n", "\r\n"]), async ({ messages, sizes }) => {
      const texts = messages.map(({ message }) => serverText(message));
      // In the order the lines came: a line as it is, a long one as what its head tells when it passes the cap, or
      // else what its head and tail tell at its end, as the stdio transport reads them.
      const read: Promise<unknown>[] = [];
      let skipped: Promise<{ start: TopLevel; told?: LongMessage }> | undefined;
      const reader = new LineReader(LONG_CAP, (line) => read.push(Promise.resolve(line)), {
        starts: (head) => {
          skipped = headOfLong(head, pause).then((start) => ({ start, told: toldByHead(head, start, LONG_CAP) }));
          read.push(skipped.then(({ told }) => told));
          return opensObject(head);
        },
        ends: (head, tail) =>
          void read.push(
            skipped!.then(({ start, told }) => told === undefined ? toldAtEnd(head, start, tail, LONG_CAP) : undefined),
          ),
        stopped: () => assert.fail("every line can be told apart"),
      });
      const lines = messages.map(({ end }, i) => `${texts[i]}${end}`).join("");
      for (const chunk of cutInto(encoder.encode(lines), sizes)) reader.push(chunk);
      const expected = messages.map(({ message }, i) => {
        if (encoder.encode(texts[i]).length <= LONG_CAP) return texts[i];
        const { standIn, reply } = pastCap(message);
        return standIn !== undefined
          ? { kind: "answer", standIn }
          : reply !== undefined
          ? { kind: "request", reply }
          : { kind: "notification" };
      });
      // A long line told by its head has nothing more to tell at its end.
      const got = (await Promise.all(read)).filter((outcome) => outcome !== undefined).map((outcome) =>
        typeof outcome === "string" ? outcome : { ...(outcome as Record<string, unknown>), note: undefined }
      );
      assert.deepEqual(got, expected.map((e) => typeof e === "string" ? e : { ...e, note: undefined }));
    }),
    { numRuns: 300 },
  );
});

Deno.test("an SSE stream the transport stopped reading is cancelled when its request aborts, so it cannot hold the process", async () => {
  let cancelled: unknown = "not cancelled";
  const serve: typeof fetch = () =>
    Promise.resolve(
      new Response(
        new ReadableStream({
          start: (controller) => controller.enqueue(new TextEncoder().encode("id: e1\ndata: \n\n")),
          cancel: (why) => void (cancelled = why),
        }),
        { headers: { "content-type": "text/event-stream" } },
      ),
    );
  const abort = new AbortController();
  const watched = watchedFetch(new URL("http://127.0.0.1/mcp"), () => serve, () => {});
  const response = await watched("http://127.0.0.1/mcp", { signal: abort.signal });
  // Read once, then left alone, as the transport leaves a stream in some turns of a reconnection.
  const reader = response.body!.getReader();
  await reader.read();
  reader.releaseLock();
  abort.abort(new DOMException("closed", "AbortError"));
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal((cancelled as DOMException).message, "closed");
});

Deno.test("an SSE stream's abort listener goes with the stream, since one signal serves every request of a connection", async () => {
  const signal = new AbortController().signal;
  const listening = new Set<unknown>();
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = (type: string, listener: unknown, options?: unknown) => {
    listening.add(listener);
    add(type, listener as EventListener, options as AddEventListenerOptions);
  };
  signal.removeEventListener = (type: string, listener: unknown) => {
    listening.delete(listener);
    remove(type, listener as EventListener);
  };
  const serve: typeof fetch = () =>
    Promise.resolve(new Response("data: {}\n\n", { headers: { "content-type": "text/event-stream" } }));
  const watched = watchedFetch(new URL("http://127.0.0.1/mcp"), () => serve, () => {});
  for (let i = 0; i < 3; i++) await (await watched("http://127.0.0.1/mcp", { signal })).text();
  assert.equal(listening.size, 0, "read to its end");
  await (await watched("http://127.0.0.1/mcp", { signal })).body!.cancel();
  assert.equal(listening.size, 0, "cancelled");
});

// 3. The stdio reader: linear, bounded, and clear about a long line.

Deno.test("a stdio server's line longer than maxMessageBytes that is not an object ends the connection: the call fails as unavailable, naming the limit", async () => {
  await using server = await connectFixture("default", { maxMessageBytes: MiB });
  const tools = server.register(new ToolSet());
  const started = Date.now();
  const end = await tools.call({ id: "1", name: "fixture__long-line" }, { timeoutMs: 60_000 });
  assert.ok(Date.now() - started < 10_000, `${Date.now() - started} ms`);
  const { kind, message } = failure(end);
  assert.equal(kind, "unavailable");
  assert.match(message, /as the server sent a line longer than 1048576 bytes \(the maxMessageBytes limit\)$/);
  assert.equal(server.closed, true);
});

Deno.test("a stdio server's answer longer than maxMessageBytes fails that call alone, naming the limit; the connection goes on", async () => {
  // An 8 MiB image makes an answer longer than the default maxMessageBytes allows.
  await using server = await connectFixture("default");
  const tools = server.register(new ToolSet());
  const beside = tools.call({ id: "2", name: "fixture__bulk", arguments: { items: ["a"] } });
  const { result: end, gapMs } = await largestGap(() => tools.call({ id: "1", name: "fixture__big-image" }));
  const { kind, message } = failure(end);
  assert.equal(kind, "invalid_output");
  assert.match(
    message,
    /Cannot read the MCP server's answer as it is longer than 6291456 bytes \(the maxMessageBytes limit\)$/,
  );
  // Skipped, not read: the line is never held or parsed.
  console.log(`an 8 MiB answer skipped: largest event-loop gap ${gapMs.toFixed(1)} ms`);
  assert.ok(gapMs < gapBound(), `${gapMs} ms`);
  assert.equal(server.closed, false);
  assert.equal(text(await beside), "bulk");
  assert.equal(text(await tools.call({ id: "3", name: "fixture__bulk", arguments: { items: ["b"] } })), "bulk");
});

Deno.test("a stdio server's answer that names its id first and never ends fails its call once past maxMessageBytes, not at a timeout", async () => {
  await using server = await connectFixture("default", { maxMessageBytes: MiB });
  const tools = server.register(new ToolSet());
  const started = Date.now();
  const end = await tools.call({ id: "1", name: "fixture__endless-answer" }, { timeoutMs: 60_000 });
  const elapsed = Date.now() - started;
  // Its end never comes: the head, read as the line passed the limit, failed the call.
  assert.ok(elapsed < 10_000, `${elapsed} ms`);
  const { kind, message } = failure(end);
  assert.equal(kind, "invalid_output");
  assert.match(message, /as it is longer than 1048576 bytes \(the maxMessageBytes limit\)$/);
  assert.equal(server.closed, false);
});

Deno.test("a stdio server's long request that names the waiting call's id first and its method after its params is answered as a request, not taken for the call's answer", async () => {
  await using server = await connectFixture("default", { maxMessageBytes: MiB });
  const tools = server.register(new ToolSet());
  const end = await tools.call({ id: "1", name: "fixture__id-first-request" }, { timeoutMs: 30_000 });
  assert.equal(text(end), "answered");
  assert.equal(server.closed, false);
});

for (const transport of ["stdio", "HTTP"]) {
  Deno.test(`a server's own request longer than maxMessageBytes is answered at once with an error naming the limit (${transport})`, async () => {
    // Its ping of 200,000 members is about 3.6 MB long; over HTTP it comes on the session's own stream.
    await using http = transport === "HTTP" ? await startHttpFixture("long-results") : undefined;
    await using server = http === undefined
      ? await connectFixture("long-results", { maxMessageBytes: MiB })
      : await connectHttp({ name: "fixture", url: http.url, maxMessageBytes: MiB });
    const tools = server.register(new ToolSet());
    const end = await tools.call({ id: "1", name: "fixture__ask-wide" }, { timeoutMs: 30_000 });
    assert.equal(
      text(end),
      "refused: MCP error -32600: Cannot read the server's request as it is longer than 1048576 bytes (the maxMessageBytes limit)",
    );
    assert.equal(server.closed, false);
  });
}

Deno.test("a stdio server that sends an over-long line before answering initialize is refused, saying so", async () => {
  await assert.rejects(
    connectFixture("long-line-init", { maxMessageBytes: MiB, connectTimeoutMs: 30_000 }),
    (error) =>
      error instanceof McpConnectionError &&
      /"fixture" as it sent a line longer than 1048576 bytes \(the maxMessageBytes limit\) before answering initialize/
        .test(error.message),
  );
});

Deno.test("the stdio line reader reads a 60 MiB line in 64 KiB chunks in linear time", () => {
  const lines: string[] = [];
  let overflowed = false;
  const reader = new LineReader(64 * MiB, (line) => lines.push(line), {
    starts: () => overflowed = true,
    ends: () => assert.fail("no long line"),
    stopped: () => assert.fail("no stop"),
  });
  const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
  const started = performance.now();
  for (let i = 0; i < 960; i++) reader.push(chunk);
  reader.push(new TextEncoder().encode("\r\nnext\n"));
  // Generous: a quadratic reader took seconds for 40 MB; this takes a fraction of one.
  assert.ok(performance.now() - started < 5_000, `${performance.now() - started} ms`);
  assert.equal(overflowed, false);
  assert.equal(lines.length, 2);
  assert.equal(lines[0].length, 960 * 64 * 1024);
  assert.equal(lines[1], "next");
});

/** Long lines no test expects. */
const NO_LONG_LINES = {
  starts: () => assert.fail("no long line"),
  ends: () => assert.fail("no long line"),
  stopped: () => assert.fail("no stop"),
};

Deno.test("the stdio line reader skips a line past the limit to its end, keeping its head and tail, however chunks cut it", () => {
  const encoder = new TextEncoder();
  const long = `{"result":{"text":"${"é".repeat(300)}"},"jsonrpc":"2.0","id":3}`;
  // 101 bytes: past the limit of 100 only with its last byte.
  const edge = `{"r":"${"x".repeat(93)}"}`;
  const stream = encoder.encode(`{"a":1}\n${long}\r\n{"b":2}\n${edge}\n{"c":3}\n`);
  for (const size of [1, 7, 100, stream.length]) {
    const lines: string[] = [];
    const ends: [string, string][] = [];
    const heads: string[] = [];
    const reader = new LineReader(100, (line) => lines.push(line), {
      starts: (head) => heads.push(head) > 0,
      ends: (head, tail) => void ends.push([head, tail]),
      stopped: () => assert.fail("no stop"),
    });
    for (let at = 0; at < stream.length; at += size) reader.push(stream.subarray(at, at + size));
    assert.deepEqual(lines, ['{"a":1}', '{"b":2}', '{"c":3}'], `chunks of ${size}`);
    assert.equal(ends.length, 2);
    // The first passed the limit as it came; the second only with its last byte, so it ended at once.
    // (Its "\r" is in it when the line came whole within the head's reach.)
    assert.ok(`${long}\r`.startsWith(ends[0][0]) && ends[0][0].startsWith('{"result":{"text":"éé'), ends[0][0]);
    assert.match(ends[0][1], /éé"},"jsonrpc":"2.0","id":3}\r$/);
    assert.deepEqual(ends[1], [edge, edge]);
    assert.deepEqual(heads, [ends[0][0], ends[1][0]]);
  }
});

Deno.test("the stdio line reader keeps the tail of a long line that passes the limit in the piece that ends it", () => {
  const encoder = new TextEncoder();
  // 103 bytes, past the limit of 100 only with the piece that brings its last two, "3}".
  const line = `{"r":"${"x".repeat(88)}","id":3}`;
  const tails: string[] = [];
  const reader = new LineReader(100, () => assert.fail("no line"), {
    starts: () => true,
    ends: (_head, tail) => void tails.push(tail),
    stopped: () => assert.fail("no stop"),
  });
  reader.push(encoder.encode(line.slice(0, 101)));
  reader.push(encoder.encode(`${line.slice(101)}\n`));
  assert.deepEqual(tails, [line]);
});

Deno.test("the stdio line reader stops at a long line it is not to skip, and at one that runs past the skip bound", () => {
  const encoder = new TextEncoder();
  for (const [starts, maxSkipped] of [[false, 10_000], [true, 1_000]] as const) {
    const lines: string[] = [];
    let stops = 0;
    const reader = new LineReader(100, (line) => lines.push(line), {
      starts: () => starts,
      ends: () => assert.fail("no end"),
      stopped: () => stops++,
    }, maxSkipped);
    reader.push(encoder.encode(`one\n${"y".repeat(600)}`));
    reader.push(encoder.encode(`${"y".repeat(600)}\ntwo\n`));
    assert.deepEqual(lines, ["one"]);
    assert.equal(stops, 1);
  }
});

Deno.test("the envelope of a message too long to read comes from its head, or from a numeric id that ends it", async () => {
  const pause = () => Promise.resolve();
  const cases: [string, { id?: number | string; isRequest: boolean }][] = [
    // As the SDK's server writes an answer and a request: the id last.
    ['{"result":{"content":[{"type":"text","text":"xx', { isRequest: false }],
    ['{"result":{"content":[{"type":"text","text":"xxxx"}]},"jsonrpc":"2.0","id":12}', { id: 12, isRequest: false }],
    ['{"method":"sampling/createMessage","params":{"x":"xxxx"},"jsonrpc":"2.0","id":4}', { id: 4, isRequest: true }],
    // The id first, found in the head.
    ['{"jsonrpc":"2.0","id":"a-1","result":{"text":"xxxx"}}', { id: "a-1", isRequest: false }],
    ['{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"xxxx"}}', { isRequest: true }],
    // The id first and the method after a long payload: its params tell a request, which no answer has.
    ['{"jsonrpc":"2.0","id":7,"params":{"data":"xxxx"},"method":"ping"}', { id: 7, isRequest: true }],
    // A head that stops inside the id does not name it.
    ['{"jsonrpc":"2.0","id":10', { isRequest: false }],
    // An id that is not the outermost object's last member, or is in a string, is no id.
    ['{"result":{"nested":{"id":5}}}', { isRequest: false }],
    ['{"result":{"text":"x\\",\\"id\\":5}"}}', { isRequest: false }],
    ['{"result":"xxxx","id":"late"}', { isRequest: false }],
  ];
  for (const [text, expected] of cases) {
    // The head is what a reader keeps of the start: here, up to the payload.
    const head = text.slice(0, text.indexOf("xx") === -1 ? text.length : text.indexOf("xx") + 2);
    assert.deepEqual(envelopeOf(await headOfLong(head, pause), text.slice(-30)), expected, text);
  }
  // A head that is a long run of a number's characters in a string is read in time linear in its length: a regular
  // expression cutting a number off its end retried the run from each of its characters (30 ms for 4,000 digits).
  const digits = `{"result":{"text":"${"1".repeat(1_000_000)}`;
  const started = performance.now();
  assert.deepEqual(envelopeOf(await headOfLong(digits, pause), digits.slice(-30)), { isRequest: false });
  assert.ok(performance.now() - started < 1_000, `${performance.now() - started} ms`);
  // The whole message but its last bytes in the head, which stops inside the id: the tail names it.
  const request = '{"method":"ping","params":{},"jsonrpc":"2.0","id":100}';
  const start = await headOfLong(request.slice(0, -2), pause);
  assert.deepEqual(start, { isRequest: true });
  assert.deepEqual(envelopeOf(start, request.slice(-30)), { id: 100, isRequest: true });
});

Deno.test("the stdio line reader splits lines across chunks and keeps multi-byte characters whole", () => {
  const lines: string[] = [];
  const reader = new LineReader(100, (line) => lines.push(line), NO_LONG_LINES);
  const bytes = new TextEncoder().encode('{"a":"検索"}\r\n\n  \n{"b":1}\n');
  for (const byte of bytes) reader.push(new Uint8Array([byte]));
  assert.deepEqual(lines, ['{"a":"検索"}', '{"b":1}']);
});

// 4. What reaches the model is bounded; the host keeps the whole result.

Deno.test("a 50 MB text result, under a raised maxMessageBytes, reaches the model as 100,000 characters and a note; the host keeps it whole", async () => {
  await using server = await connectFixture("default", { maxMessageBytes: 64 * MiB });
  const tools = server.register(new ToolSet());
  // Joining the line's bytes and decoding them whole held the loop for 60-100 ms; the copy of the text made
  // when the parse first reads it (about 30-45 ms where fresh memory maps quickly) is left: what a host pays for
  // raising the bound past 6 MiB. So the bound is 100 ms and what writing 50 MB of fresh memory costs this machine.
  const boundMs = 100 + freshCopyMs(50_000_000);
  const started = Date.now();
  const { result: end, gapMs } = await largestGap(
    () => tools.call({ id: "1", name: "fixture__big" }, { timeoutMs: 120_000 }),
    boundMs,
  );
  assert.ok(Date.now() - started < 60_000, `${Date.now() - started} ms`);
  console.log(`a 50 MB line: largest event-loop gap ${gapMs.toFixed(1)} ms (bound ${boundMs.toFixed(1)} ms)`);
  assert.ok(gapMs < boundMs, `${gapMs} ms`);
  assert.equal(end.type, "output");
  if (end.type !== "output") return;
  const [first, rest] = end.result.content;
  assert.equal(first.type === "text" && first.text.startsWith("x".repeat(100_000)), true);
  assert.equal(
    first.type === "text" && first.text.slice(100_000),
    "\n[... 49,900,000 more characters cut by the host]",
  );
  assert.deepEqual(rest, { type: "text", text: "[... 1 more content parts cut by the host]" });
  const details = end.result.details as { content: { text: string }[]; cut: boolean };
  assert.equal(details.cut, true);
  assert.equal(details.content[0].text.length, 50_000_000);
  assert.equal(details.content[1].text, "after");
});

Deno.test("an image over maxContentBytes is left out with a note; the text after it stays", async () => {
  // An 8 MiB image makes a message longer than the default maxMessageBytes allows.
  await using server = await connectFixture("default", { maxMessageBytes: 16 * MiB });
  const end = await server.register(new ToolSet()).call({ id: "1", name: "fixture__big-image" });
  assert.equal(end.type, "output");
  if (end.type !== "output") return;
  assert.deepEqual(end.result.content, [
    { type: "text", text: "caption" },
    { type: "text", text: "[... 1 more content parts cut by the host]" },
  ]);
});

Deno.test("maxContentChars is configurable", async () => {
  await using server = await connectFixture("default", { maxContentChars: 10 });
  const end = await server.register(new ToolSet()).call({
    id: "1",
    name: "fixture__echo",
    arguments: { text: "a".repeat(25) },
  });
  assert.equal(text(end), `${"a".repeat(10)}\n[... 15 more characters cut by the host]`);
});

Deno.test("a result with no content shows the model its structuredContent cut to maxContentChars; output stays whole", async () => {
  const big = "x".repeat(200_000);
  const server = await rawServer((message, raw) => {
    if (message.method === "tools/list") raw.send({ id: message.id, result: { tools: [rawTool("dump")] } });
    if (message.method === "tools/call") {
      raw.send({ id: message.id, result: { content: [], structuredContent: { big } } });
    }
  });
  await using connection = await connectMcpServer({ name: "s", transport: server.transport, maxContentChars: 1_000 });
  const end = await connection.register(new ToolSet()).call({ id: "1", name: "s__dump" });
  assert.equal(end.type, "output");
  if (end.type !== "output") return;
  const json = JSON.stringify({ big });
  assert.deepEqual(end.result.content, [{ type: "text", text: json.slice(0, 1_000) + cutNote(json.length - 1_000) }]);
  assert.deepEqual(end.result.output, { big });
  assert.deepEqual((end.result.details as { content: unknown; cut: boolean }).content, []);
  assert.equal((end.result.details as { cut: boolean }).cut, true);
});

// 5. Names a server gives never break connecting.

Deno.test("two Japanese tool names and a tool named constructor connect, with overrides, as three distinct tools", async () => {
  await using server = await connectFixture("unicode", { tools: { "検索": { effects: ["external.read"] } } });
  const names = server.tools.map((tool) => tool.descriptor.name);
  assert.equal(new Set(names).size, 3);
  for (const name of names) assert.match(name, /^[A-Za-z0-9_-]{1,64}$/);
  const [search, , constructor] = server.tools;
  assert.deepEqual(search.descriptor.effects, ["external.read"]);
  // No override of its own: it fails closed, whatever Object.prototype holds.
  assert.equal(constructor.toolName, "constructor");
  assert.equal(constructor.descriptor.semantics.concurrency, "serial");
});

// 6. A call whose time ran out before it was sent is not sent.

Deno.test("an MCP call whose deadline passes while its arguments are validated ends as timeout and is never sent", async () => {
  await using server = await connectFixture("default");
  const tools = server.register(new ToolSet({ limits: { maxBytes: 64 * MiB, maxDepth: 32 } }));
  // Enough to outlast the deadline, within the validation step budget.
  const items = Array.from({ length: 200_000 }, () => "abc");
  const end = await tools.call({ id: "1", name: "fixture__bulk", arguments: { items } }, { timeoutMs: 5 });
  assert.equal(failure(end).kind, "timeout");
  assert.equal(failure(end).uncertain, false);
  const calls = await tools.call({ id: "2", name: "fixture__calls" });
  assert.deepEqual(JSON.parse(text(calls)), ["calls"]);
});

// 7. Connect errors say what was wrong.

Deno.test("a server that lists 60,000 tools in one page is refused at maxTools, naming the limit", async () => {
  await assert.rejects(
    connectFixture("many-tools", { connectTimeoutMs: 60_000 }),
    (error) =>
      error instanceof McpConnectionError &&
      /as it lists more than 1000 tools \(the maxTools limit\): current count is at least 60000$/.test(error.message),
  );
});

Deno.test("a malformed tools/list answer is an error saying so, not that the server exited", async () => {
  await assert.rejects(
    connectFixture("malformed-list"),
    (error) =>
      error instanceof McpConnectionError &&
      error.message.startsWith(
        'Cannot list the tools of MCP server "fixture" as its tools/list answer is malformed: its tools are not a list',
      ),
  );
});

// A spread of a long array overflows the stack; src/ spreads none, so none a server sends.
Deno.test("no array is spread into push() anywhere in src/", async () => {
  const offenders: string[] = [];
  const walk = async (dir: URL) => {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isDirectory) await walk(new URL(`${entry.name}/`, dir));
      else if (
        entry.name.endsWith(".ts") && /\.push\(\s*\.\.\./.test(await Deno.readTextFile(new URL(entry.name, dir)))
      ) {
        offenders.push(entry.name);
      }
    }
  };
  await walk(new URL("../../src/", import.meta.url));
  assert.deepEqual(offenders, []);
});

// 8. Descriptions are bounded and the cut is reported.

Deno.test("an 8 MB tool description is cut to maxDescriptionChars with a warning on the connection", async () => {
  // An 8 MB description makes a listing longer than the default maxMessageBytes allows.
  await using server = await connectFixture("long-description", { maxMessageBytes: 16 * MiB });
  const tools = server.register(new ToolSet());
  const description = tools.get("fixture__verbose")!.descriptor.description;
  assert.equal(description, `${"d".repeat(4_000)}\n[... 8,384,608 more characters cut by the host]`);
  assert.deepEqual(server.warnings, [{
    tool: "verbose",
    message: `Cut the description of "verbose" from ${8 * MiB} to 4000 characters (the maxDescriptionChars limit)`,
  }]);
  assert.equal((await tools.call({ id: "1", name: "fixture__echo", arguments: { text: "ok" } })).type, "output");
});

// 9. A tool whose spec cannot be used is left out; the rest of the server works.

Deno.test("tools with an external $ref or a malformed schema are left out with warnings; the others still work", async () => {
  await using server = await connectFixture("bad-schemas");
  const tools = server.register(new ToolSet());
  assert.equal(tools.has("fixture__external"), false);
  assert.equal(tools.has("fixture__bad-required"), false);
  const warned = server.warnings.map((warning) => warning.tool);
  assert.ok(warned.includes("external") && warned.includes("bad-required"), JSON.stringify(server.warnings));
  assert.match(server.warnings.find((warning) => warning.tool === "external")!.message, /^Left out "external" as/);
  const echoed = await tools.call({ id: "1", name: "fixture__echo", arguments: { text: "fine" } });
  assert.equal(text(echoed), "fine");
});

Deno.test("tools whose schema has an invalid pattern or a non-list enum are left out, the rest still work", async () => {
  // The core's compiler refuses these schemas; the connection leaves such tools out by the same path.
  assert.throws(() => compileSchema({ type: "string", pattern: "([" }));
  assert.throws(() => compileSchema({ enum: 5 }));
  await using server = await connectFixture("bad-schemas");
  assert.deepEqual(server.tools.map((tool) => tool.toolName), ["echo"]);
});

// 2. A refresh only touches this connection's tools, all or nothing.

function hostTool(name: string): DynTool {
  return defineJsonTool({
    name,
    description: "The host's own tool.",
    inputSchema: { type: "object" },
    effects: [],
    run: () => ({}),
  });
}

async function swapped(_server: Awaited<ReturnType<typeof connectFixture>>, tools: ToolSet, changes: McpToolsChange[]) {
  assert.equal((await tools.call({ id: "swap", name: "fixture__swap" })).type, "output");
  for (let i = 0; i < 100 && changes.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(changes.length, 1);
  return changes[0];
}

Deno.test("a refresh never removes a host's tool that took the name of a server tool", async () => {
  const changes: McpToolsChange[] = [];
  await using server = await connectFixture("list-changed", { onToolsChanged: (change) => changes.push(change) });
  const tools = server.register(new ToolSet());
  const mine = hostTool("fixture__beta");
  tools.unregister("fixture__beta").register(mine);
  const change = await swapped(server, tools, changes);
  assert.equal(change.error, undefined);
  assert.deepEqual(change.removed, ["fixture__beta"]);
  assert.equal(tools.get("fixture__beta"), mine);
  assert.equal(tools.has("fixture__gamma"), true);
});

Deno.test("a refresh whose new tool collides with a host tool changes nothing and reports why", async () => {
  const changes: McpToolsChange[] = [];
  await using server = await connectFixture("list-changed", { onToolsChanged: (change) => changes.push(change) });
  const mine = hostTool("fixture__gamma");
  const tools = server.register(new ToolSet().register(mine));
  const before = tools.descriptors();
  const change = await swapped(server, tools, changes);
  assert.ok(change.error instanceof McpConnectionError);
  assert.match(change.error.message, /Cannot register "fixture__gamma" as a tool of that name is already registered/);
  assert.deepEqual(change.added, ["fixture__gamma"]);
  assert.equal(tools.descriptors(), before);
  assert.equal(tools.get("fixture__gamma"), mine);
  assert.equal(tools.get("fixture__alpha")?.descriptor.description, "The alpha tool.");
  assert.deepEqual(server.tools.map((tool) => tool.toolName), ["alpha", "beta", "swap"]);
});

/** Waits (up to 3 s) until `done` holds. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 150 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
}

Deno.test("a list_changed while connecting is followed once the first list is in place, never overwritten by it", async () => {
  // Enough schemas that building the first list yields to the event loop, where the notification is handled.
  const properties = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`p${i}`, { type: "string" }]));
  const first = Array.from(
    { length: 300 },
    (_, i) => rawTool(`old${i}`, { inputSchema: { type: "object", properties } }),
  );
  let lists = 0;
  const server = await rawServer((message, raw) => {
    if (message.method !== "tools/list") return;
    lists++;
    raw.send({ id: message.id, result: { tools: lists === 1 ? first : [rawTool("fresh")] } });
    if (lists === 1) raw.send({ method: "notifications/tools/list_changed" });
  });
  const changes: McpToolsChange[] = [];
  await using connection = await connectMcpServer({
    name: "s",
    transport: server.transport,
    onToolsChanged: (change) => changes.push(change),
  });
  await until(() => changes.length > 0);
  assert.deepEqual(connection.tools.map((tool) => tool.toolName), ["fresh"]);
  assert.equal(changes.length, 1);
  assert.deepEqual(changes[0].added, ["s__fresh"]);
  assert.equal(changes[0].removed.length, 300);
  assert.deepEqual(connection.register(new ToolSet()).descriptors().map((d) => d.name), ["s__fresh"]);
});

Deno.test("a refresh never brings back a changed tool the host unregistered", async () => {
  let version = 1;
  const server = await rawServer((message, raw) => {
    if (message.method !== "tools/list") return;
    raw.send({ id: message.id, result: { tools: [rawTool("safe"), rawTool("wipe", { description: `v${version}` })] } });
  });
  const changes: McpToolsChange[] = [];
  await using connection = await connectMcpServer({
    name: "s",
    transport: server.transport,
    onToolsChanged: (change) => changes.push(change),
  });
  const kept = connection.register(new ToolSet());
  const hidden = connection.register(new ToolSet());
  hidden.unregister("s__wipe");
  version = 2;
  server.send({ method: "notifications/tools/list_changed" });
  await until(() => changes.length > 0);
  assert.deepEqual(changes, [{ added: [], removed: [], changed: ["s__wipe"] }]);
  assert.deepEqual(hidden.descriptors().map((d) => d.name), ["s__safe"]);
  assert.equal(kept.get("s__wipe")?.descriptor.description, "v2");
});

Deno.test("a server that says its list changed before every answer is listed at a bounded pace, and onError says so", async () => {
  let lists = 0;
  const server = await rawServer((message, raw) => {
    if (message.method !== "tools/list") return;
    lists++;
    if (lists > 1) raw.send({ method: "notifications/tools/list_changed" });
    raw.send({ id: message.id, result: { tools: [rawTool("a", { description: `v${lists}` })] } });
  });
  const errors: Error[] = [];
  await using connection = await connectMcpServer({
    name: "s",
    transport: server.transport,
    onError: (error) => errors.push(error),
  });
  const tools = connection.register(new ToolSet());
  server.send({ method: "notifications/tools/list_changed" });
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  assert.ok(lists <= 8, `${lists} lists in 1.5 s`);
  assert.equal(errors.length, 1, errors.map((error) => error.message).join("\n"));
  assert.match(errors[0].message, /list_changed.*in a row/);
  assert.match(tools.get("s__a")?.descriptor.description ?? "", /^v\d+$/);
});

// 10. A spawned server inherits what it needs to run.

Deno.test("a spawned Deno server inherits DENO_DIR and finds its cached packages there", async () => {
  const root = new URL("../../", import.meta.url).pathname;
  const script = new URL("./fixtures/env_server.ts", import.meta.url).pathname;
  // DENO_DIR names this process's own cache by a path of its own, through a link: the server finds its packages
  // there with no download (a fresh cache filled from the registry took most of a minute, and needed the network).
  const info = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" }).output();
  const cache: string = JSON.parse(new TextDecoder().decode(info.stdout)).denoDir;
  const parent = await Deno.makeTempDir({ prefix: "salvor-deno-dir-" });
  const denoDir = `${parent}/cache`;
  await Deno.symlink(cache, denoDir);
  const previous = Deno.env.get("DENO_DIR");
  try {
    Deno.env.set("DENO_DIR", denoDir);
    await using server = await connectMcpServer({
      name: "env",
      command: Deno.execPath(),
      // --cached-only: the server fails to start unless it finds its packages in a cache, downloading none.
      args: ["run", TEST_LOCK, "--cached-only", "--allow-env", "--allow-read", "--no-prompt", script],
      cwd: root,
      connectTimeoutMs: 60_000,
    });
    const end = await server.register(new ToolSet()).call({
      id: "1",
      name: "env__env",
      arguments: { name: "DENO_DIR" },
    });
    assert.equal(text(end), denoDir);
  } finally {
    if (previous === undefined) Deno.env.delete("DENO_DIR");
    else Deno.env.set("DENO_DIR", previous);
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("no child process of this test file survives it", async () => {
  assert.deepEqual(await livingChildren(), []);
});
