/**
 * The shape of a checkpoint record (checkpoint.ts says what one is): its kind and its body, apart
 * so that the codec, which must know a checkpoint when it meets one, does not import the book that
 * trusts them (the two imported each other).
 */
export const CHECKPOINT_KIND = 'sync-checkpoint'

/** Digests per checkpoint at most: a document value stays a few hundred kB. */
export const MAX_COVERED = 10_000

export const DIGEST_HEX = 32
const HEX = /^[0-9a-f]*$/

export interface CheckpointBody {
  readonly v: 1
  /** The covered records' digests (`recordDigest`), 32 hex digits each, sorted, concatenated. */
  readonly digests: string
}

export function isCheckpointKind(kind: string): boolean {
  return kind === CHECKPOINT_KIND
}

export function isCheckpointBody(body: unknown): body is CheckpointBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false
  const b = body as Record<string, unknown>
  const digests = b['digests']
  return b['v'] === 1 && typeof digests === 'string' && digests.length > 0 && digests.length % DIGEST_HEX === 0 &&
    digests.length <= MAX_COVERED * DIGEST_HEX && HEX.test(digests)
}
