import assert from "node:assert/strict";
import { HandlerError } from "../../../mod.ts";
import { boundModelText, failureFromThrown, MAX_MODEL_TEXT, toolFailure } from "../../../dyn.ts";

const STACK_LINE = /\n\s*at |\.ts:\d+|file:\/\//;

Deno.test("toolFailure() uses the message as model text and sets only the fields given", () => {
  assert.deepEqual(toolFailure("unavailable", "The server exited"), {
    kind: "unavailable",
    message: "The server exited",
    modelText: "The server exited",
    uncertain: false,
  });
  const failure = toolFailure("invalid_input", "Bad", {
    modelText: "Fix it.",
    retryable: false,
    code: "E1",
    diagnostics: [],
    uncertain: true,
  });
  assert.deepEqual(failure, {
    kind: "invalid_input",
    message: "Bad",
    modelText: "Fix it.",
    uncertain: true,
    retryable: false,
    code: "E1",
    diagnostics: [],
    omittedDiagnostics: 0,
  });
});

Deno.test("toolFailure() bounds the model text to MAX_MODEL_TEXT characters with a marker", () => {
  const failure = toolFailure("handler", "x".repeat(10_000));
  assert.ok(failure.modelText.length <= MAX_MODEL_TEXT);
  assert.match(failure.modelText, /\[\.\.\. truncated\]$/);
  assert.equal(failure.message.length, 10_000);
});

Deno.test("boundModelText() never cuts a surrogate pair in half", () => {
  for (let pad = 0; pad < 4; pad++) {
    const text = boundModelText("a".repeat(pad) + "😀".repeat(2_000));
    assert.ok(text.length <= MAX_MODEL_TEXT);
    assert.ok(text.isWellFormed(), `pad ${pad}`);
  }
  assert.equal(boundModelText("short"), "short");
});

Deno.test("failureFromThrown() shows the model only the first line of an Error, never its stack", () => {
  const error = new Error("disk full\n    at write (file:///srv/app.ts:10:5)\n    at main (file:///srv/app.ts:2:1)");
  const failure = failureFromThrown("save", error);
  assert.equal(failure.kind, "handler");
  assert.equal(failure.modelText, 'Tool "save" failed: disk full');
  assert.doesNotMatch(failure.modelText, STACK_LINE);
  assert.doesNotMatch(failure.message, STACK_LINE);
  assert.ok(error.stack && !failure.modelText.includes(error.stack));
});

Deno.test("failureFromThrown() names an Error with no message by its class", () => {
  assert.equal(failureFromThrown("save", new RangeError()).modelText, 'Tool "save" failed: RangeError');
});

Deno.test("failureFromThrown() bounds a very long first line", () => {
  const failure = failureFromThrown("save", new Error("y".repeat(5_000)));
  assert.ok(failure.modelText.length < 600);
});

Deno.test("failureFromThrown() keeps a HandlerError's retryable, code and model text", () => {
  const failure = failureFromThrown(
    "read_file",
    new HandlerError("ENOENT: /etc/app.conf", {
      retryable: false,
      code: "ENOENT",
      modelText: "No such file.",
      cause: new Error("inner\n    at x (file:///a.ts:1:1)"),
    }),
  );
  assert.deepEqual(failure, {
    kind: "handler",
    message: 'Tool "read_file" failed: ENOENT: /etc/app.conf',
    modelText: "No such file.",
    uncertain: false,
    retryable: false,
    code: "ENOENT",
  });
});

Deno.test("failureFromThrown() bounds a HandlerError's message and code, and never cuts a surrogate pair", () => {
  const failure = failureFromThrown(
    "fetch",
    new HandlerError(`upstream said ${"x".repeat(5_000_000)}`, { code: "E".repeat(5_000_000) }),
  );
  assert.ok(failure.message.length < 600, String(failure.message.length));
  assert.ok(failure.modelText.length <= MAX_MODEL_TEXT);
  assert.ok(failure.code !== undefined && failure.code.length <= 200, String(failure.code?.length));
  // An emoji across the 500th character of a first line is kept whole or left out, never halved.
  const split = failureFromThrown("fetch", new Error(`${"y".repeat(499)}\u{1F600}${"z".repeat(100)}`));
  assert.ok(split.modelText.isWellFormed() && split.message.isWellFormed());
});

Deno.test("failureFromThrown() turns a string, undefined, null, a number or an object into a handler failure", () => {
  const cases: [unknown, string][] = [
    ["disk on fire", 'Tool "t" failed: disk on fire'],
    [undefined, 'Tool "t" failed: it threw undefined'],
    [null, 'Tool "t" failed: it threw null'],
    [42, 'Tool "t" failed: it threw a number'],
    [{ secret: "token-123" }, 'Tool "t" failed: it threw an object'],
  ];
  for (const [thrown, modelText] of cases) {
    const failure = failureFromThrown("t", thrown);
    assert.equal(failure.kind, "handler");
    assert.equal(failure.modelText, modelText);
    assert.equal(failure.retryable, undefined);
  }
});

Deno.test("HandlerError defaults its model text to its message and keeps its cause for the host", () => {
  const cause = new Error("inner");
  const error = new HandlerError("rate limited", { retryable: true, cause });
  assert.equal(error.name, "HandlerError");
  assert.equal(error.modelText, "rate limited");
  assert.equal(error.retryable, true);
  assert.equal(error.code, undefined);
  assert.equal(error.cause, cause);
  assert.ok(error instanceof Error);
});

Deno.test("HandlerError's default model text is its message's first line, so a stack in the message stays with the host", () => {
  const error = new HandlerError("upstream refused\n    at fetchQuote (quotes.ts:12:3)\n    at run (tool.ts:4:9)");
  assert.equal(error.modelText, "upstream refused");
  const end = failureFromThrown("quote", error);
  assert.equal(end.modelText, "upstream refused");
  assert.match(end.message, /upstream refused/);
  assert.equal(new HandlerError("a\nb", { modelText: "both\nlines" }).modelText, "both\nlines");
});
