import { signedRecordId, type SignedRecord } from '../core/signed-record.js'
import { isCheckpointKind, recordDigest } from './checkpoint.js'
import type { Decoded } from './codec.js'
import type { PoolSync } from './pool-sync.js'
import type { SignatureCache } from './signatures.js'

/**
 * Signature verdicts for a pass: a record that a valid checkpoint of the owner covers is checked
 * by recomputing its id from its content (its signature is what the checkpoint vouches for);
 * every other record by its signature, as before. docs/sync.md, "Checkpoints".
 */
export async function passVerdicts(sigs: SignatureCache, ps: PoolSync, records: readonly SignedRecord[], trustCheckpoints: boolean): Promise<void> {
  if (!trustCheckpoints) return sigs.check(records)
  const book = ps.checkpoints
  await book.refresh(ps.pdoc.map, ps.decode, sigs)
  if (book.size === 0) return sigs.check(records)
  const rest: SignedRecord[] = []
  for (const r of records) {
    // A checkpoint never vouches for a checkpoint; a value whose id is not its content's is verified (and refused) as ever.
    if (sigs.known(r) !== undefined || isCheckpointKind(r.kind)) {
      rest.push(r)
      continue
    }
    const digest = recordDigest(r)
    if (!book.coversDigest(digest) || signedRecordId(r) !== r.id) {
      rest.push(r)
      continue
    }
    sigs.vouch(r, digest)
  }
  await sigs.check(rest)
}

/** Whether a document value, as decoded, is a valid record: this very object verified (held for its stamp or not). */
export function holdsValid(sigs: SignatureCache, d: Decoded): boolean {
  return d.ok && sigs.known(d.record) === true
}
