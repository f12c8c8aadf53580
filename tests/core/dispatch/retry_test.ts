import assert from "node:assert/strict";
import {
  type Effect,
  type ExecutionSemantics,
  FAILURE_KINDS,
  type FailureKind,
  type RetryDecision,
  RetryPolicy,
  type ToolDescriptor,
} from "../../../mod.ts";
import { describeTool, toolFailure, type ToolFailureOptions } from "../../../dyn.ts";

function tool(effects: Effect[], semantics?: Partial<ExecutionSemantics>): ToolDescriptor {
  return describeTool({ name: "t", description: "A tool.", inputSchema: { type: "object" }, effects, semantics });
}

const CLASSES = {
  read: tool(["fs.read"]),
  idempotent: tool(["fs.write"], { idempotency: "idempotent", retry: "automatic" }),
  write: tool(["fs.write"]),
  unknown: tool(["billing.charge"]),
  "unknown declared idempotent": tool(["billing.charge"], { idempotency: "idempotent", retry: "automatic" }),
} as const;

const RETRYABLE_KINDS: ReadonlySet<FailureKind> = new Set(["handler", "timeout", "unavailable"]);

const policy = new RetryPolicy({ random: () => 0.5 });

function decide(descriptor: ToolDescriptor, kind: FailureKind, options: ToolFailureOptions = {}, attempt = 1) {
  return policy.decide(descriptor, toolFailure(kind, `failed: ${kind}`, options), attempt);
}

function summary(decision: RetryDecision): string {
  return decision.retry ? (decision.sameIdempotencyKey ? "retry, same key" : "retry") : "never";
}

Deno.test("RetryPolicy.decide() over every failure kind and effect class: reads retry, idempotent tools retry with the same key, writes and unknown effects never", () => {
  const expected = {
    read: "retry",
    idempotent: "retry, same key",
    write: "never",
    unknown: "never",
    "unknown declared idempotent": "never",
  } as const;
  for (const [label, descriptor] of Object.entries(CLASSES)) {
    for (const kind of FAILURE_KINDS) {
      // Timeouts and cancellations of non-idempotent tools are uncertain, as dispatch makes them.
      const uncertain = (kind === "timeout" || kind === "cancelled") &&
        descriptor.semantics.idempotency !== "idempotent";
      const decision = decide(descriptor, kind, { uncertain });
      const want = RETRYABLE_KINDS.has(kind) ? expected[label as keyof typeof expected] : "never";
      assert.equal(summary(decision), want, `${label} × ${kind}`);
      if (!decision.retry) assert.ok(decision.reason.length > 0);
    }
  }
});

Deno.test("RetryPolicy.decide() never retries a timed-out write, certain or not", () => {
  for (const uncertain of [true, false]) {
    const decision = decide(CLASSES.write, "timeout", { uncertain });
    assert.equal(decision.retry, false);
    if (!decision.retry) assert.match(decision.reason, /writes|never retried|side effects/);
  }
  const marked = decide(CLASSES.write, "timeout", { retryable: true });
  assert.equal(marked.retry, false, "a write's own retry hint does not make it safe");
});

Deno.test("RetryPolicy.decide() never retries a failure marked retryable: false, for any class", () => {
  for (const [label, descriptor] of Object.entries(CLASSES)) {
    for (const kind of RETRYABLE_KINDS) {
      const decision = decide(descriptor, kind, { retryable: false });
      assert.equal(decision.retry, false, `${label} × ${kind}`);
    }
  }
  const read = decide(CLASSES.read, "handler", { retryable: false });
  assert.ok(!read.retry && /cannot succeed/.test(read.reason));
});

Deno.test("RetryPolicy.decide() never retries an explicit_only or never tool automatically", () => {
  const explicit = decide(tool(["fs.read"], { retry: "explicit_only" }), "unavailable");
  assert.ok(!explicit.retry && /only when a person asks/.test(explicit.reason));
  assert.equal(decide(tool(["fs.read"], { retry: "never" }), "unavailable").retry, false);
});

Deno.test("RetryPolicy.decide() never retries an uncertain failure of a tool that is not idempotent, and retries an idempotent one", () => {
  const reconciled = tool(["fs.read"], { idempotency: "externally_reconciled" });
  const uncertain = decide(reconciled, "timeout", { uncertain: true });
  assert.ok(!uncertain.retry && /side effects/.test(uncertain.reason));
  assert.equal(decide(reconciled, "timeout", { uncertain: false }).retry, true);
  assert.equal(decide(CLASSES.idempotent, "timeout", { uncertain: true }).retry, true);
});

Deno.test("RetryPolicy.decide() never retries a failure kind it does not know: the list fails closed", () => {
  const decision = policy.decide(
    CLASSES.read,
    { kind: "meltdown" as FailureKind, message: "x", modelText: "x", uncertain: false },
    1,
  );
  assert.equal(decision.retry, false);
});

Deno.test("RetryPolicy.decide() stops once maxAttempts attempts are used", () => {
  const attempts = (maxAttempts: number) =>
    [1, 2, 3, 4].map((attempt) =>
      new RetryPolicy({ maxAttempts, random: () => 0 }).decide(CLASSES.read, toolFailure("handler", "x"), attempt).retry
    );
  assert.deepEqual(attempts(3), [true, true, false, false]);
  assert.deepEqual(attempts(1), [false, false, false, false]);
  const last = new RetryPolicy().decide(CLASSES.read, toolFailure("handler", "x"), 3);
  assert.ok(!last.retry && /all 3 attempts are used/.test(last.reason));
});

Deno.test("RetryPolicy backoff doubles from baseDelayMs, is capped at maxDelayMs, and jitters within its upper half", () => {
  const delays = (random: number) => {
    const p = new RetryPolicy({ maxAttempts: 10, baseDelayMs: 100, maxDelayMs: 1000, random: () => random });
    return [1, 2, 3, 4, 5, 6].map((attempt) => {
      const decision = p.decide(CLASSES.read, toolFailure("timeout", "x"), attempt);
      assert.ok(decision.retry);
      return decision.delayMs;
    });
  };
  assert.deepEqual(delays(0), [50, 100, 200, 400, 500, 500]);
  assert.deepEqual(delays(0.5), [75, 150, 300, 600, 750, 750]);
  assert.deepEqual(delays(0.999), [100, 200, 400, 800, 1000, 1000]);
});

Deno.test("RetryPolicy draws one random number a retry, from the injected source", () => {
  const draws = [0.1, 0.9];
  const p = new RetryPolicy({ baseDelayMs: 100, random: () => draws.shift()! });
  const first = p.decide(CLASSES.read, toolFailure("timeout", "x"), 1);
  const second = p.decide(CLASSES.read, toolFailure("timeout", "x"), 1);
  assert.deepEqual([first.retry && first.delayMs, second.retry && second.delayMs], [55, 95]);
  assert.equal(p.decide(CLASSES.write, toolFailure("timeout", "x"), 1).retry, false);
  assert.equal(draws.length, 0, "a refusal draws nothing");
});

Deno.test("RetryPolicy refuses bad options and attempts with typed errors", () => {
  assert.throws(() => new RetryPolicy({ maxAttempts: 0 }), RangeError);
  assert.throws(() => new RetryPolicy({ maxAttempts: 2.5 }), /whole number of at least 1: current value is 2.5/);
  assert.throws(() => new RetryPolicy({ baseDelayMs: -1 }), RangeError);
  assert.throws(() => new RetryPolicy({ maxDelayMs: Number.NaN }), RangeError);
  assert.throws(() => new RetryPolicy({ random: 0.5 as unknown as () => number }), TypeError);
  const failure = toolFailure("timeout", "x");
  assert.throws(() => policy.decide(CLASSES.read, failure, 0), RangeError);
  assert.throws(() => policy.decide(CLASSES.read, failure, 1.5), RangeError);
  for (const bad of [1, -0.1, Number.NaN, "0.5"]) {
    const p = new RetryPolicy({ random: () => bad as number });
    assert.throws(
      () => p.decide(CLASSES.read, failure, 1),
      /random\(\) must return a number in \[0, 1\)/,
      String(bad),
    );
  }
});
