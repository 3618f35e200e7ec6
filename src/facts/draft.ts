import { hlcMicros } from '../core/clock.js'
import { capabilityNotSupported } from '../core/errors.js'
import { contentFactId, structuredFactIdAt, type FactObject } from '../core/ids.js'
import { publicKeyFromSeed, sign } from '../core/ed25519.js'
import { didFromPublicKey, isIdentity, type Identity } from '../core/identity.js'
import { toHex } from '../core/bytes.js'
import { parseOptionalTime } from '../core/time.js'
import { Capability } from './capabilities.js'
import { assertContent, assertMetadata, normalizeTenant, parseSigningKey } from './input.js'
import type { FactHost } from './store-host.js'
import type { WriteOptions } from './types.js'
import type { FactBody } from './version.js'

// A write before it is committed: checked, signed, embedded and stamped here, so a follower tab
// prepares it with its own keys and the leader only commits it (commit.ts).

/** A write's input, checked (see `checkWrite`). */
export interface Checked {
  readonly text: string
  readonly tenant: string | null
  readonly metadata: Record<string, unknown>
  readonly validFromInput: number | null
  readonly key: ReturnType<typeof parseSigningKey>
  readonly supersedes: string | null
}

/** A checked write with its content id and, where there is a signer, its signature. */
interface Signed extends Checked {
  readonly factIdBytes: Uint8Array
  readonly signature: string | null
  readonly publicKey: string | null
  readonly signerDid: string | null
}

/** A prepared write: validated, hashed, signed and stamped; committing it needs no secret. */
export interface Draft {
  /** Whether the caller gave validFrom; an implicit one (the write time) does not distinguish re-assertions. */
  readonly explicitValidFrom: boolean
  readonly tenant: string | null
  readonly hlc: string
  readonly body: FactBody
  readonly author: string | null
  readonly vector: Float32Array | null
}

/**
 * A mutation ready to commit. In the browser runtime a follower tab prepares (and signs) it
 * locally and the leader tab commits it, so keys never leave the tab that owns them.
 */
export type FactMutation =
  | { readonly type: 'put'; readonly draft: Draft }
  | { readonly type: 'putMany'; readonly drafts: readonly Draft[] }
  | { readonly type: 'delete'; readonly ref: string; readonly author: string | null; readonly hlc: string }

/** Drafts of checked writes: signed side by side, embedded in one call, then stamped in order. */
export async function draftsOf(h: FactHost, checked: readonly Checked[]): Promise<Draft[]> {
  const signed = await signWrites(h, checked)
  const vectors = h.embedder ? await h.embedder.embed(signed.map((x) => x.text)) : []
  // The clock ticks last, just before the op is queued, so sequence order is commit order.
  return signed.map((x, i) => stampDraft(h, x, vectors[i] ?? null))
}

/**
 * One write's draft, as `draftsOf` makes it; without a promise when nothing needs awaiting (no
 * signer, no embedder: most writes), so its stamp is taken right where the caller queues it.
 */
export function draftOf(h: FactHost, c: Checked): Draft | Promise<Draft> {
  if (h.embedder || signerOf(h, c) !== null) return draftsOf(h, [c]).then((d) => d[0]!)
  return stampDraft(h, signed(c, contentFactId(c.text, c.tenant), null, null), null)
}

/** Who signs a checked write: its own key, else the store's identity where provenance is on; null for none. */
function signerOf(h: FactHost, c: Checked): Uint8Array | Identity | null {
  return c.key ?? (h.caps.has(Capability.CRYPTOGRAPHIC_PROVENANCE) ? h.identity : null)
}

/** A checked write with its id and signature. Spelled out rather than spread: one shape for every write (a join signs 100k). */
function signed(c: Checked, factIdBytes: Uint8Array, signature: string | null, k: { publicKey: string; did: string } | null): Signed {
  return {
    text: c.text, tenant: c.tenant, metadata: c.metadata, validFromInput: c.validFromInput, key: c.key, supersedes: c.supersedes,
    factIdBytes, signature, publicKey: k ? k.publicKey : null, signerDid: k ? k.did : null,
  }
}

export function checkWrite(h: FactHost, content: unknown, options: WriteOptions, supersedes: string | null): Checked {
  const text = assertContent(content)
  const tenant = normalizeTenant(options.tenantId)
  if (tenant !== null && !h.caps.has(Capability.MULTI_TENANT)) {
    throw capabilityNotSupported(Capability.MULTI_TENANT, supersedes === null ? 'write' : 'supersede')
  }
  const metadata = assertMetadata(options.metadata)
  const validFromInput = parseOptionalTime(options.validFrom, 'validFrom')
  const key = parseSigningKey(options.signingKey)
  if (key && !h.caps.has(Capability.CRYPTOGRAPHIC_PROVENANCE)) {
    throw capabilityNotSupported(Capability.CRYPTOGRAPHIC_PROVENANCE, 'write with signingKey')
  }
  return { text, tenant, metadata, validFromInput, key, supersedes }
}

/** Content ids and signatures of checked writes (signatures all at once: WebCrypto runs them side by side). */
export async function signWrites(h: FactHost, checked: readonly Checked[]): Promise<Signed[]> {
  // A signer's public key and did, once per batch (the did is a base58 encoding).
  const who = async (signer: Uint8Array | Identity): Promise<{ publicKey: string; did: string }> => {
    const pub = isIdentity(signer) ? signer.publicKey : await publicKeyFromSeed(signer)
    return { publicKey: toHex(pub), did: didFromPublicKey(pub) }
  }
  const ids = checked.map((c) => contentFactId(c.text, c.tenant))
  const sigs = await Promise.all(checked.map((c, i) => {
    const signer = signerOf(h, c)
    return signer === null ? null : isIdentity(signer) ? signer.sign(ids[i]!) : sign(ids[i]!, signer)
  }))
  const keys = new Map<Uint8Array | Identity, { publicKey: string; did: string }>()
  for (const c of checked) {
    const signer = signerOf(h, c)
    if (signer !== null && !keys.has(signer)) keys.set(signer, await who(signer))
  }
  return checked.map((c, i) => {
    const s = sigs[i]
    return signed(c, ids[i]!, s ? toHex(s) : null, s ? keys.get(signerOf(h, c)!)! : null)
  })
}

/** The draft of a signed write, stamped now: sequence order is the order of `stampDraft` calls. */
export function stampDraft(h: FactHost, w: Signed, vector: Float32Array | null): Draft {
  const { metadata, tenant } = w
  const { stamp, hlc } = h.log.tickDecoded()
  const writtenAt = hlcMicros(hlc)
  const validFrom = h.caps.has(Capability.BI_TEMPORAL) && w.validFromInput !== null ? w.validFromInput : writtenAt
  const { subject, predicate, object } = metadata as { subject?: string; predicate?: string; object?: FactObject }
  const structuredId =
    typeof subject === 'string' && typeof predicate === 'string' && object !== undefined
      ? toHex(structuredFactIdAt({ tenantId: tenant, subject, predicate, object }, validFrom))
      : null
  const writtenBy =
    (typeof metadata['session_id'] === 'string' ? (metadata['session_id'] as string) : null) ??
    (typeof metadata['agent_id'] === 'string' ? (metadata['agent_id'] as string) : null) ??
    // Who signed, as memweave names agents everywhere else: a did:key (it encodes the public key).
    w.signerDid
  return {
    explicitValidFrom: w.validFromInput !== null,
    tenant,
    hlc: stamp,
    author: h.identity?.did ?? null,
    vector,
    body: {
      content: w.text,
      factId: toHex(w.factIdBytes),
      structuredId,
      metadata,
      validFrom,
      writtenAt,
      supersedes: w.supersedes,
      source: { writtenBy, signature: w.signature, publicKey: w.publicKey },
    },
  }
}
