import { blake2b } from '@noble/hashes/blake2.js'
import { createBLAKE2b, type IHasher } from 'hash-wasm'

/**
 * BLAKE2b-128, the hash under every id memweave computes (fact ids, record ids, checkpoint digests).
 *
 * Two implementations of one function. hash-wasm's WebAssembly build does a 700-byte record in
 * about 1 µs where @noble/hashes' JavaScript takes 15 µs; ids are computed several times per write
 * and once per record a joining device receives, so that was a third of a fact write and a fifth
 * of a join. WebAssembly is instantiated asynchronously, while ids are computed synchronously: until
 * it is ready (or where it cannot be, e.g. a CSP without `wasm-unsafe-eval`), the JavaScript one
 * answers. Both are held to the same digests (test/core/blake2b.test.ts), so an id never depends on
 * which one computed it.
 */
let fast: IHasher | null = null

const ready: Promise<void> = createBLAKE2b(128).then(
  (hasher) => {
    fast = hasher
  },
  () => undefined,
)

/** Resolves once the WebAssembly hasher is in use, or known unavailable; never rejects. Openers await it so the first writes are fast too. */
export const fastHashReady = (): Promise<void> => ready

/** Whether the WebAssembly hasher answers (for tests and benchmarks). */
export const fastHashActive = (): boolean => fast !== null

/** BLAKE2b with a 16-byte digest (a distinct parameter set, not a truncated BLAKE2b-512). */
export function blake2b128(bytes: Uint8Array): Uint8Array {
  if (fast === null) return blake2b(bytes, { dkLen: 16 })
  fast.init()
  fast.update(bytes)
  return fast.digest('binary')
}

/** The JavaScript implementation alone (the reference the WebAssembly one is tested against). */
export const blake2b128Js = (bytes: Uint8Array): Uint8Array => blake2b(bytes, { dkLen: 16 })
