/**
 * What serving a `ToolSet` over MCP takes, whatever the transport: the
 * server's name, and the bounds a shared or public server needs.
 *
 * @module
 */

import { isRecord } from "../../core/common/_is_record.ts";
import type { SealOptions } from "../../core/seal/seal.ts";
import { showValue } from "../../core/common/_show_value.ts";

/** The server's identity, sent to every client. */
export interface McpServerInfo {
  /** A short machine name, e.g. `"notes"`. */
  readonly name: string;
  /** The server's version, e.g. `"1.0.0"`. */
  readonly version: string;
  /** A human title. */
  readonly title?: string;
}

/** Options every way of serving takes. */
export interface McpServeOptions {
  /**
   * The most `tools/call` requests this server runs at once. A call over the
   * bound is answered at once with a tool error whose `_meta["salvor/failure"]`
   * says `retryable: true`, and never runs. A 2025-era client's call that
   * waits for a person's answer holds its place while it waits. Default 64.
   */
  readonly maxCallsInFlight?: number;
  /** How many tools one `tools/list` page holds. Default 100. */
  readonly pageSize?: number;
  /** Guidance for the client's model on how to use these tools. */
  readonly instructions?: string;
  /** Hears out-of-band errors (a client gone mid-answer, a refused request state); reporting only. */
  readonly onError?: (error: Error) => void;
  /**
   * The seal the set was made with (`new ToolSet({ seal })`), needed to
   * hand parked calls to clients: a parked call is answered with an input
   * request whose `requestState` is the sealed record, encrypted with
   * AES-256-GCM under a key derived from the seal's key (HKDF-SHA-256), so
   * the client can neither read nor change it. Key secrets must be bytes or
   * strings. Without a seal, a parked call is a tool error, and a set with
   * an approval gate is refused.
   *
   * The client's retry resumes the call on any replica holding the seal, once
   * per nonce store: the default `MemoryNonceStore` is the set's own, in this
   * process, so replicas behind a load balancer resume the same retry once
   * each unless their seals share one `nonces` store (Deno KV, SQL).
   */
  readonly seal?: SealOptions;
}

/** The options with every default filled in. */
export interface ResolvedServeOptions {
  readonly maxCallsInFlight: number;
  readonly pageSize: number;
  readonly instructions?: string;
  readonly onError: (error: Error) => void;
}

/** Default bound on calls running at once. */
export const DEFAULT_MAX_CALLS_IN_FLIGHT = 64;
/** Default number of tools in a `tools/list` page. */
export const DEFAULT_PAGE_SIZE = 100;

/** Checks a positive-integer option of at most `max` (a delay, at most a timer's 2^31 - 1), naming it in the message. */
export function positiveInteger(
  value: unknown,
  name: string,
  fallback: number,
  max: number = Number.MAX_SAFE_INTEGER,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1 || value > max) {
    const problem = typeof value === "number" ? RangeError : TypeError;
    const upTo = max === Number.MAX_SAFE_INTEGER ? "" : ` up to ${max}`;
    throw new problem(
      `Cannot serve MCP as ${name} must be a positive integer${upTo}: current value is ${showValue(value)}`,
    );
  }
  return value;
}

/** Checks the server info and the common options, filling in defaults. */
export function resolveServeOptions(info: McpServerInfo, options: McpServeOptions): ResolvedServeOptions {
  if (!isRecord(info) || typeof info.name !== "string" || info.name === "" || typeof info.version !== "string") {
    throw new TypeError(
      `Cannot serve MCP as info must be { name, version } with a non-empty name: current value is ${showValue(info)}`,
    );
  }
  if (!isRecord(options)) {
    throw new TypeError(`Cannot serve MCP as options must be an object: current value is ${showValue(options)}`);
  }
  const { instructions, onError } = options;
  if (instructions !== undefined && typeof instructions !== "string") {
    throw new TypeError(
      `Cannot serve MCP as options.instructions must be a string: current value is ${showValue(instructions)}`,
    );
  }
  if (onError !== undefined && typeof onError !== "function") {
    throw new TypeError(
      `Cannot serve MCP as options.onError must be a function: current value is ${showValue(onError)}`,
    );
  }
  return {
    maxCallsInFlight: positiveInteger(
      options.maxCallsInFlight,
      "options.maxCallsInFlight",
      DEFAULT_MAX_CALLS_IN_FLIGHT,
    ),
    pageSize: positiveInteger(options.pageSize, "options.pageSize", DEFAULT_PAGE_SIZE),
    ...(instructions === undefined ? {} : { instructions }),
    onError: (onError as ((error: Error) => void) | undefined) ?? (() => {}),
  };
}
