/**
 * mulberry32 (public domain, Tommy Ettinger): a tiny, fast, seedable generator of numbers in
 * [0, 1). Not for secrets (core/ed25519.ts and pools/crypto.ts use the platform's CSPRNG); for
 * what must come out the same in every run: the conformance suite's resamples and probe words,
 * planted positions in the evaluations, benchmark fixtures, and failing test runs repeated.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
