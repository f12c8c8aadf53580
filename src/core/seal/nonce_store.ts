/**
 * Single use for sealed records: a store that remembers which nonces have
 * been consumed, so a record verifies once.
 *
 * @module
 */

/**
 * Remembers consumed nonces, so a sealed record verifies once.
 * {@linkcode RecordSeal.verify} calls `consume` last, after every other
 * check has passed, so a record that fails for another reason never uses
 * up its nonce.
 *
 * The contract a store must keep:
 * - `consume(nonce, expiresAt)` returns `true` the first time it sees
 *   `nonce` and `false` every time after, including for two calls that
 *   race: check and insert must be one atomic step (a transaction, a
 *   compare-and-set, a unique key), never a read followed by a write.
 * - It may forget a nonce once `expiresAt` (milliseconds since the Unix
 *   epoch) has passed: by then the record it came from is expired, and a
 *   verification that took its nonce as it expired reads the clock again
 *   after `consume` and refuses it.
 * - It answers a boolean: anything but `true` is read as a nonce used
 *   before.
 * - When it cannot record a nonce (full, unavailable) it returns `false`
 *   or throws; it never returns `true` for a nonce it has not recorded.
 *   A throw reaches the caller of `verify` as it is.
 *
 * {@linkcode MemoryNonceStore} keeps nonces in one process's memory. Where
 * records are verified by more than one process, or must stay single-use
 * across a restart, use a shared durable store, such as Deno KV:
 *
 * ```ts ignore
 * const kv = await Deno.openKv();
 * const nonces: NonceStore = {
 *   async consume(nonce, expiresAt) {
 *     const key = ["nonce", nonce];
 *     const expireIn = Math.max(1, expiresAt - Date.now());
 *     const { ok } = await kv.atomic().check({ key, versionstamp: null }).set(key, true, { expireIn }).commit();
 *     return ok;
 *   },
 * };
 * ```
 *
 * or SQL, where the primary key makes the insert the atomic step (delete
 * rows whose `expires_at` has passed now and then):
 *
 * ```ts ignore
 * // CREATE TABLE seal_nonces (nonce TEXT PRIMARY KEY, expires_at BIGINT NOT NULL)
 * const nonces: NonceStore = {
 *   async consume(nonce, expiresAt) {
 *     const result = await db.query(
 *       "INSERT INTO seal_nonces (nonce, expires_at) VALUES ($1, $2) ON CONFLICT (nonce) DO NOTHING",
 *       [nonce, expiresAt],
 *     );
 *     return result.rowCount === 1;
 *   },
 * };
 * ```
 *
 * @example A store that keeps nonces in a Set (and so never forgets one)
 * ```ts
 * import type { NonceStore } from "./nonce_store.ts";
 * import assert from "node:assert/strict";
 *
 * const seen = new Set<string>();
 * const nonces: NonceStore = {
 *   consume(nonce) {
 *     if (seen.has(nonce)) return false;
 *     seen.add(nonce);
 *     return true;
 *   },
 * };
 * assert.equal(await nonces.consume("n1", Date.now() + 60_000), true);
 * assert.equal(await nonces.consume("n1", Date.now() + 60_000), false);
 * ```
 */
export interface NonceStore {
  /**
   * Records a nonce, atomically.
   *
   * @param nonce The nonce, 22 base64url characters.
   * @param expiresAt When the record that carries it expires, in
   *   milliseconds since the Unix epoch; the store may forget the nonce after.
   * @returns `true` the first time, `false` after (or when it cannot record it).
   */
  consume(nonce: string, expiresAt: number): boolean | Promise<boolean>;
}

/**
 * Options of a {@linkcode MemoryNonceStore}.
 *
 * @example A smaller store on a clock of its own
 * ```ts
 * import { MemoryNonceStore, type MemoryNonceStoreOptions } from "./nonce_store.ts";
 * import assert from "node:assert/strict";
 *
 * let now = 0;
 * const options: MemoryNonceStoreOptions = { maxSize: 2, now: () => now };
 * const nonces = new MemoryNonceStore(options);
 * nonces.consume("a", 10);
 * nonces.consume("b", 10);
 * assert.equal(nonces.consume("c", 10), false);
 * now = 10;
 * assert.equal(nonces.consume("c", 20), true);
 * ```
 */
export interface MemoryNonceStoreOptions {
  /** The most nonces it holds before it refuses new ones. Default 100,000. */
  readonly maxSize?: number;
  /** The clock expiry is read against, in milliseconds since the Unix epoch. Default `Date.now`. */
  readonly now?: () => number;
}

const DEFAULT_MAX_SIZE = 100_000;

// How many swept entries the queue may carry at its head before it is compacted.
const COMPACT_AFTER = 1024;

/**
 * The in-memory {@linkcode NonceStore}, and the one a
 * {@linkcode RecordSeal} uses when given none. It holds one process's
 * nonces, so a record stays single-use only within that process and until
 * it restarts; use a durable store where that is not enough.
 *
 * It is bounded: each call first drops the nonces whose `expiresAt` has
 * passed, in the order they were consumed, stopping at the first that has
 * not (amortised O(1) a call). A nonce is so forgotten no sooner than its
 * `expiresAt`, and no later than the moment every nonce consumed before it
 * has expired too. When `maxSize` nonces are held it fails closed: `consume`
 * returns `false` for every new nonce until some expire, so a flood of
 * records is refused rather than growing memory without bound (and each
 * refused record reports `replayed`).
 *
 * @example A nonce is consumed once
 * ```ts
 * import { MemoryNonceStore } from "./nonce_store.ts";
 * import assert from "node:assert/strict";
 *
 * const nonces = new MemoryNonceStore();
 * const expiresAt = Date.now() + 60_000;
 * assert.equal(nonces.consume("AAAAAAAAAAAAAAAAAAAAAA", expiresAt), true);
 * assert.equal(nonces.consume("AAAAAAAAAAAAAAAAAAAAAA", expiresAt), false);
 * ```
 */
export class MemoryNonceStore implements NonceStore {
  /** The most nonces it holds before it refuses new ones. */
  readonly maxSize: number;
  readonly #now: () => number;
  readonly #expiries = new Map<string, number>();
  // The nonces in the order they were consumed, with #head the first not yet swept.
  #queue: string[] = [];
  #head = 0;

  /**
   * Makes an empty store.
   *
   * @param options The bound and the clock.
   * @throws {RangeError} When `maxSize` is not a positive safe integer.
   * @throws {TypeError} When `now` is not a function.
   *
   * @example A store for at most 10 nonces
   * ```ts
   * import { MemoryNonceStore } from "./nonce_store.ts";
   * import assert from "node:assert/strict";
   *
   * assert.equal(new MemoryNonceStore({ maxSize: 10 }).maxSize, 10);
   * ```
   */
  constructor(options: MemoryNonceStoreOptions = {}) {
    const { maxSize = DEFAULT_MAX_SIZE, now = Date.now } = options;
    if (!Number.isSafeInteger(maxSize) || maxSize < 1) {
      throw new RangeError(`Cannot keep nonces as maxSize must be a positive integer: current value is ${maxSize}`);
    }
    if (typeof now !== "function") {
      throw new TypeError(`Cannot keep nonces as now must be a function: current value is ${typeof now}`);
    }
    this.maxSize = maxSize;
    this.#now = now;
  }

  /**
   * How many nonces it holds, counting expired ones not yet dropped.
   *
   * @returns The count.
   *
   * @example Counting
   * ```ts
   * import { MemoryNonceStore } from "./nonce_store.ts";
   * import assert from "node:assert/strict";
   *
   * const nonces = new MemoryNonceStore();
   * nonces.consume("a", Date.now() + 60_000);
   * assert.equal(nonces.size, 1);
   * ```
   */
  get size(): number {
    return this.#expiries.size;
  }

  /**
   * Records a nonce.
   *
   * @param nonce The nonce.
   * @param expiresAt When the nonce may be forgotten, in milliseconds since the Unix epoch.
   * @returns `true` the first time; `false` for a nonce it holds, or when it holds `maxSize` nonces.
   * @throws {TypeError} When `nonce` is not a string, `expiresAt` not a
   *   finite number, or the clock returns no time.
   *
   * @example Full, it fails closed
   * ```ts
   * import { MemoryNonceStore } from "./nonce_store.ts";
   * import assert from "node:assert/strict";
   *
   * const nonces = new MemoryNonceStore({ maxSize: 1 });
   * const expiresAt = Date.now() + 60_000;
   * assert.equal(nonces.consume("a", expiresAt), true);
   * assert.equal(nonces.consume("b", expiresAt), false);
   * ```
   */
  consume(nonce: string, expiresAt: number): boolean {
    if (typeof nonce !== "string") {
      throw new TypeError(`Cannot consume a nonce as it must be a string: current value is ${typeof nonce}`);
    }
    if (typeof expiresAt !== "number" || !Number.isFinite(expiresAt)) {
      throw new TypeError(
        `Cannot consume a nonce as its expiresAt must be a finite number: current value is ${String(expiresAt)}`,
      );
    }
    const now = this.#now();
    // A clock that gives no time, or an infinite one, would make every nonce look expired, and forgotten.
    if (typeof now !== "number" || !Number.isFinite(now)) {
      throw new TypeError(`Cannot consume a nonce as now() must return a time: current value is ${String(now)}`);
    }
    this.#sweep(now);
    // A nonce expiring by now may have been swept already, its use forgotten: its record has expired anyway.
    if (expiresAt <= now || this.#expiries.has(nonce) || this.#expiries.size >= this.maxSize) return false;
    this.#expiries.set(nonce, expiresAt);
    this.#queue.push(nonce);
    return true;
  }

  #sweep(now: number): void {
    const queue = this.#queue;
    let head = this.#head;
    while (head < queue.length) {
      const nonce = queue[head];
      if ((this.#expiries.get(nonce) as number) > now) break;
      this.#expiries.delete(nonce);
      head++;
    }
    if (head > COMPACT_AFTER && head * 2 > queue.length) {
      this.#queue = queue.slice(head);
      head = 0;
    }
    this.#head = head;
  }
}
