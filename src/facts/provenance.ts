import { equalBytes, fromHex } from '../core/bytes.js'
import { verify } from '../core/ed25519.js'
import { contentFactId } from '../core/ids.js'
import type { FactMemory } from './types.js'

/**
 * GMP's canonical `verify_provenance(memory, expected_fact_id)` (interface contract §4.1): true iff
 * the memory's own content and tenant hash to `expectedFactId` and its signature over that id
 * verifies under its public key. Altered content, another tenant, or one flipped bit: false.
 * Never throws.
 */
export async function verifyProvenance(memory: FactMemory, expectedFactId: string | Uint8Array): Promise<boolean> {
  try {
    const source = memory?.source
    if (!source?.signature || !source.publicKey) return false
    const expected = typeof expectedFactId === 'string' ? fromHex(expectedFactId) : expectedFactId
    if (expected.length !== 16) return false
    if (!equalBytes(contentFactId(memory.content, memory.tenantId), expected)) return false
    return await verify(source.signature, expected, source.publicKey)
  } catch {
    return false
  }
}
