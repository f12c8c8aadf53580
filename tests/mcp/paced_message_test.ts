// A server's long message: read in paced pieces and held to the bounds on
// what the SDK reads of it in one stretch; an answer that breaks them fails
// the call it answers at once. Over HTTP, a long message reaches the SDK's
// transport as a stand-in and is swapped back in on delivery.

import assert from "node:assert/strict";
import type { JSONRPCMessage } from "@modelcontextprotocol/client";
import { MAX_CONTENT_BLOCKS, ParkedMessages, readMessage, UnreadRequest } from "../../src/mcp/client/_paced_message.ts";
import { boundedFetch } from "../../src/mcp/client/_http_bodies.ts";
import { MAX_MESSAGE_VALUES, MAX_OBJECT_MEMBERS, MAX_TOKEN_CHARS, PIECE_CHARS } from "../../src/mcp/_paced_json.ts";
import { slices } from "../../src/core/common/_slices.ts";
import { flattened, freshCopyMs, gapBound, largestGap } from "../fixtures/event_loop.ts";
import { servingSse } from "./_helpers.ts";

const NO_PAUSE = () => Promise.resolve();
const NO_ANSWER = (message: JSONRPCMessage) => assert.fail(`nothing is to be answered: ${JSON.stringify(message)}`);

/** The bounded fetch with the default cap, as a connection makes it. */
function paced(fetchFn: typeof fetch, parked: ParkedMessages, answer: (message: JSONRPCMessage) => void): typeof fetch {
  return boundedFetch(fetchFn, {
    maxBytes: 64 * 1024 * 1024,
    onTooLarge: () => {},
    parked,
    answer,
    report: (error) => assert.fail(`nothing is skipped: ${error.message}`),
  });
}
const LONG = "x".repeat(PIECE_CHARS);

function answer(id: number, result: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: "2.0", id, result });
}

Deno.test("readMessage() reads a long answer as the SDK would, in pieces", async () => {
  const rows = Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `row ${i}` }));
  const text = answer(3, { content: [{ type: "text", text: LONG }], structuredContent: { rows } });
  assert.ok(text.length > PIECE_CHARS);
  const message = await readMessage(text, NO_PAUSE) as { id: number; result: Record<string, unknown> };
  assert.deepEqual(message, JSON.parse(text));
});

Deno.test("readMessage() turns a long answer that breaks a bound into an error answer with its id, saying why", async () => {
  const wide = Object.fromEntries(Array.from({ length: MAX_OBJECT_MEMBERS + 1 }, (_, i) => [`member_${i}`, i]));
  const blocks = Array.from({ length: MAX_CONTENT_BLOCKS + 1 }, () => ({ type: "text", text: "b" }));
  const cases: [string, RegExp][] = [
    [answer(4, { content: [], ...wide }), /an object holds more than 10000 members/],
    [answer(5, { content: [], structuredContent: wide }), /an object holds more than 10000 members/],
    [answer(6, { content: blocks }), /its result holds more than 10000 content blocks: current count is 10001/],
    [
      answer(9, { content: [], padding: Array.from({ length: MAX_MESSAGE_VALUES }, () => ({})) }),
      /it holds more than 500000 values/,
    ],
    [`{"jsonrpc":"2.0","id":7,"result":{"text":"${LONG}"}`, /a string does not end|expected a comma/],
    [answer(8, { content: [], padding: LONG }).replace('"jsonrpc":"2.0"', '"jsonrpc":"1.0"'), /.+/],
  ];
  for (const [text, reason] of cases) {
    const message = await readMessage(text, NO_PAUSE) as { id: number; error: { code: number; message: string } };
    assert.equal(message.id, JSON.parse(text.slice(0, text.indexOf(',"result"')) + "}").id);
    assert.equal(message.error.code, -32603);
    assert.match(message.error.message, /^Cannot read the MCP server's answer as /);
    assert.match(message.error.message, reason);
  }
});

Deno.test("readMessage() never holds the event loop for 50 ms on long runs of white space, digits, letters or escapes", async () => {
  // 30 million characters each (the code before this test held the loop for 0.08 to 0.74 s on them).
  const run = 30_000_000;
  const inPadding = (body: string) => `{"jsonrpc":"2.0","id":1,"result":{"content":[],"padding":[${body}]}}`;
  const flood = `[${"{},".repeat(MAX_MESSAGE_VALUES)}{}]`;
  const tooLong = new RegExp(`a number or literal is longer than ${MAX_TOKEN_CHARS} characters`);
  const cases: [string, string, RegExp | undefined][] = [
    ["white space in an empty list", inPadding(" ".repeat(run)), undefined],
    ["white space between members", inPadding(`1,${" ".repeat(run)}2`), undefined],
    ["a number", inPadding("1".repeat(run)), tooLong],
    ["a fraction", inPadding(`0.${"1".repeat(run)}`), tooLong],
    ["letters", inPadding("t".repeat(run)), tooLong],
    // Read whole, then scanned again for the id, which stands after them.
    [
      "escaped quotes",
      `{"jsonrpc":"2.0","result":{"content":[],"s":"${'\\"'.repeat(run / 2)}","padding":${flood}},"id":1}`,
      /it holds more than 500000 values/,
    ],
    [
      "white space around the id's colon",
      `{"jsonrpc":"2.0","result":{"padding":${flood}},"id"${" ".repeat(run / 2)}:${" ".repeat(run / 2)}1}`,
      /it holds more than 500000 values/,
    ],
  ];
  for (const [shape, joined, refusal] of cases) {
    // As a transport hands it over: decoded into one text, not joined from pieces.
    const text = flattened(joined);
    // The string of escaped quotes is read whole, one copy of 15 million characters.
    const boundMs = gapBound() + (shape === "escaped quotes" ? freshCopyMs(run / 2) : 0);
    const { result, gapMs } = await largestGap(
      () => readMessage(text, slices()).then((message) => message as Record<string, unknown>, (error: Error) => error),
      boundMs,
    );
    console.log(`${shape}: largest event-loop gap ${gapMs.toFixed(1)} ms (bound ${boundMs.toFixed(1)} ms)`);
    assert.ok(gapMs < boundMs, `${shape}: ${gapMs} ms`);
    assert.ok(!(result instanceof Error), `${shape}: ${(result as Error).message}`);
    if (refusal === undefined) {
      assert.deepEqual(result.result, JSON.parse(text).result, shape);
    } else {
      assert.match((result.error as { message: string }).message, refusal, shape);
    }
  }
});

Deno.test("readMessage() refuses a long message whose id it never read, and a server's request with the answer it is to get", async () => {
  await assert.rejects(readMessage(`[${'"a",'.repeat(PIECE_CHARS / 4)}"a"]`, NO_PAUSE), Error);
  await assert.rejects(readMessage(`{"result":{"text":"${LONG}"`, NO_PAUSE), SyntaxError);
  const request = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "elicitation/create",
    params: Object.fromEntries(Array.from({ length: MAX_OBJECT_MEMBERS + 1 }, (_, i) => [`m${i}`, i])),
  });
  await assert.rejects(readMessage(request, NO_PAUSE), (error: unknown) => {
    assert.ok(error instanceof UnreadRequest, "a request from the server is not an answer");
    assert.ok(error.cause instanceof RangeError);
    // The answer the server is to be sent, under its request's id.
    const { id, error: problem } = error.answer as { id: number; error: { code: number; message: string } };
    assert.equal(id, 1);
    assert.equal(problem.code, -32600);
    assert.match(problem.message, /^Cannot read the server's request as an object holds more than 10000 members/);
    return true;
  });
  await assert.rejects(
    readMessage(JSON.stringify({ jsonrpc: "2.0", id: "i".repeat(5_000), result: { text: LONG } }), NO_PAUSE),
    RangeError,
    "an id that long is never copied into a stand-in",
  );
});

Deno.test("ParkedMessages hands the transport a short stand-in for a long message and swaps the message back in", async () => {
  const parked = new ParkedMessages();
  const short = answer(1, { content: [] });
  assert.equal(await parked.park(short, NO_PAUSE), short, "a short message passes as it came");
  const long = answer(2, { content: [{ type: "text", text: LONG }] });
  const standIn = await parked.park(long, NO_PAUSE);
  assert.ok(standIn.length < 200, standIn);
  // The transport may give the stand-in another id (a replayed request): the swapped message keeps it.
  const delivered = { ...JSON.parse(standIn), id: 9 } as JSONRPCMessage;
  assert.deepEqual(parked.unpark(delivered), { ...JSON.parse(long), id: 9 });
  assert.deepEqual(parked.unpark(delivered), delivered, "a message is swapped in once");
  const error = JSON.stringify({ jsonrpc: "2.0", id: 3, error: { code: -32000, message: LONG } });
  const errorStandIn = JSON.parse(await parked.park(error, NO_PAUSE)) as JSONRPCMessage;
  assert.deepEqual(parked.unpark(errorStandIn), JSON.parse(error));
  const forged = { jsonrpc: "2.0", id: 4, result: { _meta: { "io.salvor/parked": "guess" } } } as JSONRPCMessage;
  assert.equal(parked.unpark(forged), forged, "a token nobody parked is left alone");
});

/** What the transport reads of an SSE body served in the given chunks, through boundedFetch. */
async function readThrough(
  chunks: string[],
  parked = new ParkedMessages(),
  answer: (message: JSONRPCMessage) => void = NO_ANSWER,
): Promise<string> {
  const encoder = new TextEncoder();
  const serve = servingSse(chunks.map((chunk) => encoder.encode(chunk)));
  return await (await paced(serve, parked, answer)("http://127.0.0.1/mcp")).text();
}

Deno.test("boundedFetch() passes short SSE events as they came, however the chunks cut them", async () => {
  const stream = [
    ": a comment\n\n",
    "id: e1\nretry: 500\ndata: \n\n",
    `event: message\r\nid: e2\r\ndata: ${answer(1, { content: [] })}\r\n\r\n`,
    `data: {"jsonrpc":"2.0",\rdata: "method":"notifications/progress"}\r\r`,
    "data: cut short",
  ].join("");
  for (const size of [1, 2, 3, 7, 64, stream.length]) {
    const chunks = Array.from(
      { length: Math.ceil(stream.length / size) },
      (_, i) => stream.slice(i * size, (i + 1) * size),
    );
    assert.equal(await readThrough(chunks), stream, `chunks of ${size}`);
  }
  // "\r" then "\n" across two chunks is one line end, not an empty line that ends the event.
  assert.equal(await readThrough(["data: 1\r", "\ndata: 2\n\n"]), "data: 1\r\ndata: 2\n\n");
});

Deno.test("boundedFetch() parks a long SSE message and a long JSON body, and leaves other events and bodies alone", async () => {
  const parked = new ParkedMessages();
  const long = answer(2, { content: [{ type: "text", text: LONG }] });
  const read = await readThrough(["id: e7\ndata: ", long.slice(0, 1000), long.slice(1000), "\n\n"], parked);
  const [, id, data] = /^id: (.*)\ndata: (.*)\n\n$/.exec(read) ?? [];
  assert.equal(id, "e7");
  assert.deepEqual(parked.unpark(JSON.parse(data)), JSON.parse(long));
  const other = `event: ping\ndata: ${LONG}\n\n`;
  assert.equal(await readThrough([other], parked), other, "a long event of another type passes as it came");
  const json: typeof fetch = () => Promise.resolve(Response.json(JSON.parse(long)));
  const body = JSON.parse(await (await paced(json, parked, NO_ANSWER)("http://127.0.0.1/mcp")).text());
  assert.deepEqual(parked.unpark(body), JSON.parse(long));
  // A body that says it is short passes unread, as it came (a fetch holds a body to its content-length); a
  // compressed one, whatever length it says, is read.
  const saysShort = new Headers({ "content-type": "application/json", "content-length": "40" });
  const passed = await paced(() => Promise.resolve(new Response(long, { headers: saysShort })), parked, NO_ANSWER)(
    "http://127.0.0.1/mcp",
  );
  assert.equal(await passed.text(), long);
  const compressed = new Headers({
    "content-type": "application/json",
    "content-length": "40",
    "content-encoding": "gzip",
  });
  const unpacked = await paced(
    () => Promise.resolve(new Response(long, { headers: compressed })),
    parked,
    NO_ANSWER,
  )(
    "http://127.0.0.1/mcp",
  );
  assert.deepEqual(parked.unpark(JSON.parse(await unpacked.text())), JSON.parse(long));
  const html: typeof fetch = () => Promise.resolve(new Response(LONG, { headers: { "content-type": "text/html" } }));
  assert.equal(await (await paced(html, parked, NO_ANSWER)("http://127.0.0.1/mcp")).text(), LONG);
});

Deno.test("boundedFetch() answers a server's long request it cannot read, and hands the transport a text it skips", async () => {
  const params = Object.fromEntries(Array.from({ length: MAX_OBJECT_MEMBERS + 1 }, (_, i) => [`m${i}`, i]));
  const request = JSON.stringify({ jsonrpc: "2.0", id: "r-1", method: "ping", params });
  const answers: JSONRPCMessage[] = [];
  const read = await readThrough(
    ["id: e9\ndata: ", request, "\n\n", `data: ${answer(1, { content: [] })}\n\n`],
    new ParkedMessages(),
    (message) => answers.push(message),
  );
  assert.equal(answers.length, 1);
  const { id, error } = answers[0] as { id: string; error: { code: number; message: string } };
  assert.equal(id, "r-1");
  assert.equal(error.code, -32600);
  assert.match(error.message, /^Cannot read the server's request as an object holds more than 10000 members/);
  const [event, next] = read.split("\n\n");
  const [, eventId, data] = /^id: (.*)\ndata: (.*)$/.exec(event) ?? [];
  assert.equal(eventId, "e9", "the event keeps its id, for a stream resumed later");
  assert.match(JSON.parse(data), /^Skipped a message that is not JSON-RPC: Cannot read the server's request as /);
  assert.equal(next, `data: ${answer(1, { content: [] })}`, "the events after it pass as they came");
});

Deno.test("boundedFetch() decodes a body that comes in one chunk of 12 MB a piece at a time, SSE or JSON", async () => {
  const text = "x".repeat(12_000_000);
  const message = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text }] } });
  const encoder = new TextEncoder();
  for (const [type, body] of [["text/event-stream", `id: e1\ndata: ${message}\n\n`], ["application/json", message]]) {
    const serve = servingSse([encoder.encode(body)], type);
    const { result, gapMs } = await largestGap(
      async () => await (await paced(serve, new ParkedMessages(), NO_ANSWER)("http://127.0.0.1/mcp")).text(),
    );
    console.log(`one 12 MB chunk of ${type}: largest event-loop gap ${gapMs.toFixed(1)} ms`);
    // Split, decoded and searched for line ends whole, one SSE chunk of 20 MB held the loop for 63-68 ms.
    assert.ok(gapMs < gapBound(), `${type}: ${gapMs} ms`);
    assert.ok(result.length < 1_000, "the message reached the transport as a stand-in");
  }
});

Deno.test("boundedFetch() reads a 50 MB SSE event a part at a time, holding the event loop for one copy of its text at most", async () => {
  const text = "x".repeat(50_000_000);
  const message = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text }] } });
  const bytes = new TextEncoder().encode(`id: e1\ndata: ${message}\n\n`);
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += 65_536) chunks.push(bytes.subarray(at, at + 65_536));
  const serve = servingSse(chunks);
  const parked = new ParkedMessages();
  // Decoding, splitting and joining the event whole held the loop for 0.32 s. What is left is the one copy of the
  // text made the first time the parse reads it (30-45 ms where fresh memory maps quickly), and a slice of other
  // work. So the bound is 100 ms and what writing 50 MB of fresh memory costs this machine.
  const boundMs = 100 + freshCopyMs(text.length);
  const { result, gapMs } = await largestGap(
    async () => await (await paced(serve, parked, NO_ANSWER)("http://127.0.0.1/mcp")).text(),
    boundMs,
  );
  console.log(`a 50 MB SSE event: largest event-loop gap ${gapMs.toFixed(1)} ms (bound ${boundMs.toFixed(1)} ms)`);
  assert.ok(gapMs < boundMs, `${gapMs} ms`);
  const [, data] = /^id: e1\ndata: (.*)\n\n$/.exec(result) ?? [];
  const unparked = parked.unpark(JSON.parse(data)) as unknown as { result: { content: { text: string }[] } };
  assert.equal(unparked.result.content[0].text.length, text.length);
});
