// A server's long message is parsed in paced pieces; what each piece holds
// goes through JSON.parse, so the verdict and the value must be JSON.parse's
// own, whatever the pieces' size. Tested against JSON.parse on generated and
// mutated texts with pieces of 1 to 40 characters, so that every path
// (batches, long members, long strings, long white space) is taken.

import assert from "node:assert/strict";
import { fc } from "../dev_deps.ts";
import { MAX_LONG_DEPTH, MAX_TOKEN_CHARS, parsePaced, PIECE_CHARS, topLevelOf } from "../../src/mcp/_paced_json.ts";
import { slices } from "../../src/core/common/_slices.ts";
import { gapBound, largestGap } from "../fixtures/event_loop.ts";

const NO_PAUSE = () => Promise.resolve();

type Verdict = { ok: true; value: unknown } | { ok: false; error: string };

function nativeVerdict(text: string): Verdict {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: (error as Error).name };
  }
}

async function pacedVerdict(text: string, piece: number): Promise<Verdict> {
  try {
    return { ok: true, value: await parsePaced(text, NO_PAUSE, { piece }) };
  } catch (error) {
    return { ok: false, error: (error as Error).name };
  }
}

/** Asserts that the paced parse of a text is JSON.parse's, member order and own "__proto__" included. */
async function assertSameAsNative(text: string, piece: number): Promise<void> {
  const native = nativeVerdict(text);
  const paced = await pacedVerdict(text, piece);
  const label = `${JSON.stringify(text)} in pieces of ${piece}`;
  assert.equal(paced.ok, native.ok, label);
  if (native.ok && paced.ok) {
    assert.deepStrictEqual(paced.value, native.value, label);
    assert.equal(JSON.stringify(paced.value), JSON.stringify(native.value), label);
  } else if (!paced.ok) {
    assert.equal(paced.error, "SyntaxError", label);
  }
}

const SAMPLES = [
  '{"__proto__":{"a":1},"b":[1,2,{"c":"d"}]}',
  '{"a":1,"a":2,"b":3,"a":4}',
  "  [ [ [ 1 ] ] , [ ] , { } ]  ",
  '"ab\\u0041cd\\"e\\\\f\\/"',
  '"\ud83d\ude00xyz\\ud83d\\ude00"',
  "[-0.5e-3,1E+2,true,false,null]",
  "[1,2,]",
  "[,1]",
  "[1 2]",
  '{"a":1,}',
  '{"a" 1}',
  "[{]}",
  "[1,2]x",
  "[1]]",
  '"unterminated',
  '"a\nb"',
  "[01]",
  "[]",
  "{}",
  "[ ]",
  "[\n]",
  "",
  "   ",
];

Deno.test("parsePaced() reads what JSON.parse reads, and refuses what it refuses, in pieces of any size", async () => {
  for (const text of SAMPLES) {
    for (const piece of [1, 2, 3, 4, 5, 8, 64]) await assertSameAsNative(text, piece);
  }
});

Deno.test("parsePaced() agrees with JSON.parse on generated JSON in small pieces", async () => {
  await fc.assert(
    fc.asyncProperty(fc.json(), fc.integer({ min: 1, max: 40 }), async (text, piece) => {
      await assertSameAsNative(text, piece);
    }),
    { numRuns: 3_000 },
  );
});

Deno.test("parsePaced() agrees with JSON.parse on JSON with a character added or cut out", async () => {
  const characters = fc.constantFrom(...'[]{},:"\\ 0123456789-.eEtrufalsn\u00e9\ud83dab\nu'.split(""));
  await fc.assert(
    fc.asyncProperty(
      fc.json(),
      fc.nat(),
      fc.nat(),
      characters,
      fc.integer({ min: 1, max: 20 }),
      async (text, a, b, character, piece) => {
        const at = a % (text.length + 1);
        const to = b % (text.length + 1);
        await assertSameAsNative(text.slice(0, at) + character + text.slice(at), piece);
        await assertSameAsNative(text.slice(0, at) + text.slice(at + 1), piece);
        await assertSameAsNative(text.slice(0, Math.min(at, to)) + text.slice(Math.max(at, to)), piece);
      },
    ),
    { numRuns: 3_000 },
  );
});

Deno.test("parsePaced() agrees with JSON.parse on short random texts of JSON's characters", async () => {
  const characters = fc.constantFrom(...'[]{},:" 01-.etrufalsn\\'.split(""));
  await fc.assert(
    fc.asyncProperty(
      fc.string({ unit: characters, maxLength: 24 }),
      fc.integer({ min: 1, max: 10 }),
      async (text, piece) => {
        await assertSameAsNative(text, piece);
      },
    ),
    { numRuns: 5_000 },
  );
});

Deno.test("parsePaced() refuses an object longer than a piece that holds more than maxMembers members", async () => {
  const members = (count: number) =>
    `{${Array.from({ length: count }, (_, i) => `"k${i}":${i}`).join(",")},"nested":{"a":[1,2,3]}}`;
  const text = members(99);
  assert.equal(Object.keys(await parsePaced(text, NO_PAUSE, { piece: 16, maxMembers: 100 }) as object).length, 100);
  await assert.rejects(
    parsePaced(members(100), NO_PAUSE, { piece: 16, maxMembers: 100 }),
    (error) => error instanceof RangeError && /an object holds more than 100 members/.test(error.message),
  );
  // A repeated key counts again: it costs as much to set.
  await assert.rejects(
    parsePaced(`{${'"a":1,'.repeat(200)}"a":2}`, NO_PAUSE, { piece: 16, maxMembers: 100 }),
    RangeError,
  );
});

/** How many values a JSON value is: itself and every value within it. */
function valueCount(value: unknown): number {
  if (typeof value !== "object" || value === null) return 1;
  let count = 1;
  for (const item of Object.values(value)) count += valueCount(item);
  return count;
}

Deno.test("parsePaced() never refuses a text for maxValues unless it holds more values, in pieces of any size", async () => {
  await fc.assert(
    fc.asyncProperty(fc.json(), fc.integer({ min: 1, max: 40 }), async (text, piece) => {
      const values = valueCount(JSON.parse(text));
      // The count is one fewer than the values: the bound holds at values - 1, and at 0 when that is all there is.
      const read = await parsePaced(text, NO_PAUSE, { piece, maxValues: values - 1 });
      assert.deepStrictEqual(read, JSON.parse(text));
    }),
    { numRuns: 3_000 },
  );
});

Deno.test("parsePaced() refuses a text that holds more than maxValues values, however they nest", async () => {
  const dense = (count: number) => `[${"{},".repeat(count - 1)}{}]`;
  const nested = (count: number) => `[${Array.from({ length: count }, () => "[[[[[]]]]]").join(",")}]`;
  const spaced = (count: number) => `[${"[ ] ,".repeat(count - 1)}{ }]`;
  for (const piece of [16, 64, 256]) {
    for (const [text, values] of [[dense(300), 301], [nested(60), 301], [spaced(300), 301]] as const) {
      assert.equal(valueCount(JSON.parse(text)), values);
      assert.ok(Array.isArray(await parsePaced(text, NO_PAUSE, { piece, maxValues: 300 })), `${text} in ${piece}`);
      await assert.rejects(
        parsePaced(text, NO_PAUSE, { piece, maxValues: 200 }),
        (error) => error instanceof RangeError && /it holds more than 200 values/.test(error.message),
        `${text} in ${piece}`,
      );
    }
  }
});

Deno.test("parsePaced() refuses a text whose commas alone pass maxValues before it builds any value", async () => {
  // Built up to the bound, half a million objects paused the host 20-30 ms at each collection.
  const flood = `{"result":{"padding":[${"{},".repeat(2_000_000)}{}]}}`;
  const parse = JSON.parse;
  let parsed = 0;
  JSON.parse = (text, reviver) => (parsed++, parse(text, reviver));
  try {
    await assert.rejects(
      parsePaced(flood, NO_PAUSE, { maxValues: 500_000 }),
      (error) => error instanceof RangeError && /it holds more than 500000 values/.test(error.message),
    );
  } finally {
    JSON.parse = parse;
  }
  assert.equal(parsed, 0);
  // Commas in strings are not values, escaped quotes or not.
  const strings = JSON.stringify({ a: [",".repeat(100_000), '\\",",'.repeat(50_000)] });
  assert.deepEqual(await parsePaced(strings, NO_PAUSE, { maxValues: 10 }), JSON.parse(strings));
});

Deno.test("parsePaced() with maxDepth refuses containers nested past it however short, and reads what it allows as JSON.parse does", async () => {
  const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
  const cases = [
    // A short text, parsed at once; a short deep container beside long members; a long container holding one.
    (depth: number) => nested(depth),
    (depth: number) => `{"pad":"${"x".repeat(300)}","deep":${nested(depth - 1)}}`,
    (depth: number) => `[${`"${"y".repeat(50)}",`.repeat(10)}${nested(depth - 1)}]`,
  ];
  for (const piece of [16, 64, 1_000]) {
    for (const text of cases) {
      assert.deepEqual(await parsePaced(text(8), NO_PAUSE, { piece, maxDepth: 8 }), JSON.parse(text(8)));
      await assert.rejects(parsePaced(text(9), NO_PAUSE, { piece, maxDepth: 8 }), (error: unknown) => {
        assert.ok(error instanceof RangeError, String(error));
        assert.match(error.message, /containers nest more than 8 deep/);
        return true;
      });
      // Without maxDepth, only long containers are bounded.
      assert.deepEqual(await parsePaced(text(9), NO_PAUSE, { piece }), JSON.parse(text(9)));
    }
  }
});

Deno.test("parsePaced() reads a number of up to MAX_TOKEN_CHARS characters as JSON.parse does, and refuses a longer one", async () => {
  const number = (digits: number) => `[1,${"7".repeat(digits)},2]`;
  const read = await parsePaced(number(MAX_TOKEN_CHARS), NO_PAUSE, { piece: 64 });
  assert.deepEqual(read, JSON.parse(number(MAX_TOKEN_CHARS)));
  await assert.rejects(
    parsePaced(number(MAX_TOKEN_CHARS + 1), NO_PAUSE, { piece: 64 }),
    (error) =>
      error instanceof RangeError &&
      error.message.includes(`a number or literal is longer than ${MAX_TOKEN_CHARS} characters: current position is 3`),
  );
});

Deno.test("topLevelOf() finds an object's id and method wherever they stand, without parsing the rest", async () => {
  const long = "x".repeat(100);
  const cases: [string, { id?: number | string; isRequest: boolean }][] = [
    [`{"result":{"id":"inner","method":"m","text":"${long}"},"jsonrpc":"2.0","id":7}`, { id: 7, isRequest: false }],
    [String.raw`{"id" : "a\"b" , "result":[{"id":1}]}`, { id: 'a"b', isRequest: false }],
    [`{"jsonrpc":"2.0","method":"elicitation/create","params":{"x":"${long}"},"id":3}`, { id: 3, isRequest: true }],
    [`{"jsonrpc":"2.0","id":null,"result":{}}`, { isRequest: false }],
    [`{"jsonrpc":"2.0","id":"${long}","result":{}}`, { isRequest: false }],
    [`{"result":{"text":"unterminated}`, { isRequest: false }],
    [`[{"id":1}]`, { isRequest: false }],
  ];
  for (const [text, expected] of cases) {
    assert.deepEqual(await topLevelOf(text, NO_PAUSE, 64), expected, text.slice(0, 80));
  }
});

Deno.test("parsePaced() refuses more than MAX_LONG_DEPTH long containers nested, without re-reading the text for ever", async () => {
  const depth = MAX_LONG_DEPTH + 1;
  const text = "[".repeat(depth) + `"${"x".repeat(64)}"` + "]".repeat(depth);
  await assert.rejects(
    parsePaced(text, NO_PAUSE, { piece: 16 }),
    (error) =>
      error instanceof RangeError && /more than 100 containers longer than 16 characters nest/.test(error.message),
  );
  const shallow = "[".repeat(MAX_LONG_DEPTH) + `"${"x".repeat(64)}"` + "]".repeat(MAX_LONG_DEPTH);
  assert.deepEqual(await parsePaced(shallow, NO_PAUSE, { piece: 16 }), JSON.parse(shallow));
});

Deno.test("parsePaced() yields to the event loop while it parses 4 MiB of small objects with keys of their own", async () => {
  const text = `[${Array.from({ length: 300_000 }, (_, i) => `{"key_${i}":${i}}`).join(",")}]`;
  let pauses = 0;
  const pause = slices();
  const value = await parsePaced(text, () => {
    pauses++;
    return pause();
  }) as Record<string, number>[];
  assert.equal(value.length, 300_000);
  assert.deepEqual(value[123_456], { key_123456: 123_456 });
  assert.ok(pauses > 50, `paused ${pauses} times`);
});

Deno.test("parsePaced() refuses a text with more commas than maxValues allows as RangeError before reading it, malformed or not", async () => {
  const pause = () => Promise.resolve();
  for (const text of [`[${"0,".repeat(600_000)}0]`, `[}${",".repeat(600_000)}]`]) {
    await assert.rejects(
      parsePaced(text, pause, { maxValues: 500_000 }),
      (error) => error instanceof RangeError && /more than 500000 values/.test(error.message),
    );
  }
  // Under the bound, a malformed text is refused as JSON.parse refuses it.
  await assert.rejects(parsePaced(`[}${",".repeat(5_000)}]`, pause, { maxValues: 500_000 }), SyntaxError);
});

Deno.test("topLevelOf() carries a string's escapes across its pieces: a quote is escaped by an odd run of backslashes only", async () => {
  // Runs of backslashes of every length across the end of a string's first piece, each before a quote that ends the
  // string or not.
  for (let run = 0; run < 12; run++) {
    for (let before = 0; before < 2 * run + 3; before++) {
      const body = "a".repeat(PIECE_CHARS - before) + "\\".repeat(2 * run) + '\\"' + "b".repeat(run);
      const text = `{"result":"${body}","id":${run}}`;
      assert.equal(JSON.parse(text).id, run);
      assert.deepEqual(await topLevelOf(text, NO_PAUSE, 4), { id: run, isRequest: false }, text);
    }
  }
});

Deno.test("topLevelOf() reads a string of 60 million backslashes a piece at a time, never holding the event loop for 50 ms", async () => {
  const text = `{"id":1,"result":"${"\\".repeat(60_000_000)}"}`;
  const { result, gapMs } = await largestGap(() => topLevelOf(text, slices(), 4096));
  assert.deepEqual(result, { id: 1, isRequest: false });
  // Searching each piece for a quote, then counting the backslashes before it, took 112 ms in one stretch.
  assert.ok(gapMs < gapBound(), `${gapMs} ms`);
});
