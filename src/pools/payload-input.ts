import { invalidArgument } from '../core/errors.js'
import {
  MAX_SOURCE_CHARS, assertConfidence, assertContent, assertEvidence, assertPrivacy, assertSeconds, assertText, assertType,
} from './input.js'
import type { MemoryPayload } from './records.js'
import type { Structure } from './structure.js'
import type { WriteMemoryInput } from './types.js'

/**
 * Builds the payload of a new memory from validated input and the pool's settings:
 * privacy flags are the memory's own plus the pool's (a NO_TRAINING pool flags every memory;
 * PUBLIC is refused in an encrypted pool; ENCRYPTED is only accepted in one); an EPHEMERAL memory
 * without a TTL gets the pool's `ephemeralTtl`; a permanent memory has no TTL.
 * @throws MemweaveError INVALID_ARGUMENT naming the field.
 */
export function buildPayload(input: Partial<WriteMemoryInput>, s: Structure, now: number, base?: MemoryPayload): MemoryPayload {
  if (typeof input !== 'object' || input === null) throw invalidArgument('input', 'must be an object')
  const body = s.create.body
  const type = input.type === undefined && base ? base.type : assertType(input.type)
  const content = input.content === undefined && base
    ? { subject: base.subject, predicate: base.predicate, object: base.object, context: base.context }
    : assertContent(input.content)
  const privacy = assertPrivacy(input.privacy)
  if (privacy.encrypted && !body.encrypted) throw invalidArgument('privacy', 'ENCRYPTED is a property of the pool: create the pool with privacy "ENCRYPTED"')
  const publicVis = privacy.public || (!privacy.authorized && (input.privacy === undefined && base ? base.visibility === 'PUBLIC' : body.publicDefault))
  if (publicVis && body.encrypted) throw invalidArgument('privacy', 'PUBLIC memories cannot live in an encrypted pool')
  const permanent = input.permanent === undefined ? (base?.permanent ?? false) : input.permanent
  if (typeof permanent !== 'boolean') throw invalidArgument('permanent', 'must be a boolean')
  const ephemeral = input.privacy === undefined && base ? base.ephemeral : privacy.ephemeral
  if (ephemeral && permanent) throw invalidArgument('privacy', 'an EPHEMERAL memory cannot be permanent')
  let ttl = input.ttl === undefined && base ? base.ttl : assertSeconds(input.ttl, 'ttl')
  if (permanent) {
    if (input.ttl !== undefined && input.ttl !== null) throw invalidArgument('ttl', 'a permanent memory has no TTL')
    ttl = null
  }
  if (ephemeral && ttl === null) ttl = s.policies.ephemeralTtl
  return {
    type,
    subject: content.subject,
    predicate: content.predicate,
    object: content.object,
    context: content.context ?? null,
    confidence: input.confidence === undefined ? (base?.confidence ?? 1) : assertConfidence(input.confidence),
    source: input.source === undefined ? (base?.source ?? 'direct_statement') : assertText(input.source, 'source', MAX_SOURCE_CHARS),
    evidence: input.evidence === undefined && base ? base.evidence : assertEvidence(input.evidence),
    createdAt: now,
    ttl,
    permanent,
    visibility: publicVis ? 'PUBLIC' : 'AUTHORIZED',
    ephemeral,
    noTraining: body.noTraining || privacy.noTraining || (input.privacy === undefined && base ? base.noTraining : false),
    supersedes: [],
    merged: null,
  }
}
