import { canonicalCopy } from '../core/canonical-bytes.js'
import { invalidArgument, isMemweaveError } from '../core/errors.js'
import { bytesFrom } from '../core/bytes.js'
import { isIdentity, type Identity } from '../core/identity.js'

/** Validation of what callers pass in: small labelled asserts at the API edge (STYLE.md rule 15). */

export const MAX_CONTENT_CHARS = 1 << 20

export function assertContent(content: unknown, field = 'content'): string {
  if (typeof content !== 'string') throw invalidArgument(field, `must be a string, got ${typeof content}`)
  if (content.length > MAX_CONTENT_CHARS) throw invalidArgument(field, `is longer than ${MAX_CONTENT_CHARS} characters`)
  if (!content.isWellFormed()) throw invalidArgument(field, 'contains a lone UTF-16 surrogate')
  return content
}

/** '' and null both mean the default tenant (GMP test vectors hash them alike). */
export function normalizeTenant(tenant: unknown, field = 'tenantId'): string | null {
  if (tenant === undefined || tenant === null || tenant === '') return null
  if (typeof tenant !== 'string') throw invalidArgument(field, `must be a string or null, got ${typeof tenant}`)
  if (tenant.length > 256) throw invalidArgument(field, 'is longer than 256 characters')
  if (/[\u0000-\u001f]/.test(tenant)) throw invalidArgument(field, 'must not contain control characters')
  // A lone surrogate becomes U+FFFD in UTF-8: distinct tenants would share fact ids and signatures.
  if (!tenant.isWellFormed()) throw invalidArgument(field, 'contains a lone UTF-16 surrogate')
  return tenant
}

export function assertMetadata(metadata: unknown): Record<string, unknown> {
  if (metadata === undefined || metadata === null) return {}
  if (typeof metadata !== 'object' || Array.isArray(metadata)) throw invalidArgument('metadata', 'must be a plain object')
  let copy: Record<string, unknown>
  try {
    // As a round trip through canonical JSON: rejects functions, symbols, cycles, NaN, and gives a clean copy.
    copy = canonicalCopy(metadata) as Record<string, unknown>
  } catch (err) {
    const why = isMemweaveError(err) ? err.message.replace(/^value: /, '') : err instanceof Error ? err.message : String(err)
    throw invalidArgument('metadata', `must be JSON-serialisable (${why})`)
  }
  const importance = copy['importance']
  if (importance !== undefined && (typeof importance !== 'number' || !Number.isFinite(importance))) {
    throw invalidArgument('metadata.importance', 'must be a finite number')
  }
  for (const key of ['subject', 'predicate'] as const) {
    if (copy[key] !== undefined && typeof copy[key] !== 'string') throw invalidArgument(`metadata.${key}`, 'must be a string')
  }
  return copy
}

export type SigningKeyInput = Uint8Array | string | Identity

/** A signing key as a 32-byte seed (64-byte libsodium secret keys keep their seed half) or an Identity. */
export function parseSigningKey(value: unknown): Uint8Array | Identity | null {
  if (value === undefined || value === null) return null
  if (isIdentity(value)) return value
  const bytes = bytesFrom(value, [32, 64])
  if (!bytes) throw invalidArgument('signingKey', 'must be an Identity or a 32-byte Ed25519 seed (bytes, hex or base64)')
  return bytes.slice(0, 32)
}

export function assertBudget(value: unknown): number {
  if (value === undefined || value === null) return 4000
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw invalidArgument('budgetTokens', 'must be a non-negative integer')
  }
  return value
}

export function assertTopK(value: unknown): number | null {
  if (value === undefined || value === null) return null
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw invalidArgument('topK', 'must be a non-negative integer')
  return value
}

export function assertQuery(query: unknown): string {
  if (typeof query !== 'string') throw invalidArgument('query', `must be a string, got ${typeof query}`)
  return query
}
