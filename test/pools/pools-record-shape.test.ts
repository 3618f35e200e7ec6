import { expect, test } from 'vitest'
import { createIdentity } from '../../src/index.js'
import { payloadProblem, poolBodyProblem } from '../../src/pools/record-shape.js'
import { PoolKind } from '../../src/pools/records.js'
import { decodeRecord, encodeRecord } from '../../src/sync/codec.js'
import { memoryBody } from '../helpers/hostile-helpers.js'

/**
 * Issue 26, case 3: a record from elsewhere meets the caps the API applies to a caller, for every
 * kind, and the codec quarantines it `malformed` naming the field. (The hostile side, through a real
 * relay: test/hostile/hostile-caps.test.ts.)
 */

const MB = 1 << 20
const ID = 'a'.repeat(32)

test('each kind of pool record is refused for a field the API would refuse, and accepted as the API writes it', async () => {
  const did = (await createIdentity()).did
  const payload = (memoryBody('Aria', 'Rome') as unknown as { payload: Record<string, unknown> }).payload
  const good: Array<[string, Record<string, unknown>]> = [
    [PoolKind.MEMORY, { payload }],
    [PoolKind.ACL, { member: did, read: true, write: false, expiresAt: null }],
    [PoolKind.ACL, { member: did, read: false, write: false, expiresAt: null, cutoff: [ID] }],
    [PoolKind.TOMBSTONE, { targets: [{ id: ID, supersedes: [] }], reason: 'forget' }],
    [PoolKind.RESOLVE, { winner: ID, losers: [ID] }],
    [PoolKind.ACCESS, { reads: [ID], at: 1 }],
    [PoolKind.RATING, { memory: ID, rating: -1 }],
    [PoolKind.POLICY, { policies: { similarity: 0.7 } }],
  ]
  for (const [kind, body] of good) expect(poolBodyProblem({ kind: kind as PoolKind, body: body as never }), kind).toBeNull()

  const bad: Array<[string, Record<string, unknown>, RegExp]> = [
    [PoolKind.MEMORY, { payload: { ...payload, object: 'x'.repeat(10 * MB) } }, /object: is longer than 4096/],
    [PoolKind.MEMORY, { payload: { ...payload, subject: 'x'.repeat(513) } }, /subject: is longer than 512/],
    [PoolKind.MEMORY, { payload: { ...payload, source: '\ud800' } }, /source: contains a lone UTF-16 surrogate/],
    [PoolKind.MEMORY, { payload: { ...payload, type: 'SECRET' } }, /type: must be one of/],
    [PoolKind.MEMORY, { payload: { ...payload, ttl: -5 } }, /ttl: must be a positive number/],
    [PoolKind.MEMORY, { payload: { ...payload, merged: { strategy: 'concatenate', from: [] } } }, /merged.strategy/],
    [PoolKind.MEMORY, { payload: { ...payload, supersedes: [ID.toUpperCase()] } }, /supersedes\[0\]/],
    [PoolKind.MEMORY, { payload, extra: 'x'.repeat(MB) }, /body.extra: is not a field/],
    [PoolKind.MEMORY, { sealed: { keyId: 'k', iv: 'i', ct: 'c'.repeat(2 * MB) } }, /sealed.ct: is longer than/],
    [PoolKind.ACL, { member: 'did:key:' + 'z'.repeat(MB), read: true, write: true, expiresAt: null }, /member/],
    [PoolKind.ACL, { member: did, read: true, write: true, expiresAt: null, cutoff: ['x'.repeat(MB)] }, /cutoff\[0\]/],
    [PoolKind.KEY, { keyId: 'k', epoch: 1, member: did, epk: 'e'.repeat(MB), iv: 'i', ct: 'c' }, /epk: is longer than/],
    [PoolKind.CREATE, { v: 1, nonce: ID, encrypted: false, noTraining: false, publicDefault: false, name: 'n'.repeat(MB), sealedName: null, policies: {} }, /name: is longer than 256/],
    [PoolKind.POLICY, { policies: { trustedAgents: ['not a did'] } }, /trustedAgents\[0\]/],
    [PoolKind.TOMBSTONE, { targets: [{ id: ID, supersedes: [], note: 'x' }], reason: 'forget' }, /targets\[0\].note/],
    [PoolKind.RATING, { memory: ID, rating: 5 }, /rating/],
    [PoolKind.ACCESS, { reads: [ID], at: Infinity }, /at: must be a finite number/],
  ]
  for (const [kind, body, why] of bad) expect(poolBodyProblem({ kind: kind as PoolKind, body: body as never }), `${kind} ${why}`).toMatch(why)
})

test('the codec quarantines an oversized record malformed, naming the field and the cap', async () => {
  const id = await createIdentity()
  const { signRecord } = await import('../../src/pools/records.js')
  const payload = (memoryBody('Aria', 'x'.repeat(5000)) as unknown as { payload: Record<string, unknown> }).payload
  const r = await signRecord(id, { kind: PoolKind.MEMORY, pool: ID as never, tenant: null, author: id.did, hlc: '000000000001.000000', body: { payload } as never })
  expect(decodeRecord(r.id, encodeRecord(r))).toEqual({
    ok: false, reason: 'malformed', detail: 'not a well-formed pool-memory: body.payload.object: is longer than 4096 characters',
  })
  expect(decodeRecord(r.id, { ...encodeRecord(r), tenant: 't'.repeat(300) })).toMatchObject({ ok: false, reason: 'malformed' })
  expect(decodeRecord(r.id, { ...encodeRecord(r), author: `did:key:${'z'.repeat(MB)}` })).toMatchObject({ ok: false, reason: 'malformed' })
})

test('a memory is shape-checked once on its way in: the payload of a body that passed is not checked again (issue 31, a join)', () => {
  const payload = { ...(memoryBody('Aria', 'Rome') as unknown as { payload: Record<string, unknown> }).payload }
  // Each check reads the subject once: the count says how many times the payload was checked.
  let reads = 0
  const subject = payload['subject']
  Object.defineProperty(payload, 'subject', { enumerable: true, get: () => (reads++, subject) })
  // The codec checks the body; the pools state then asks about the payload (replica.ts, materialize.ts).
  expect(poolBodyProblem({ kind: PoolKind.MEMORY, body: { payload } as never })).toBeNull()
  expect(payloadProblem(payload)).toBeNull()
  expect(reads).toBe(1)

  // A payload never seen inside a body is checked, and one that fails is refused with the same text either way.
  const bad = { ...payload, subject: 'x'.repeat(513) }
  expect(payloadProblem(bad)).toBe('payload.subject: is longer than 512 characters')
  expect(poolBodyProblem({ kind: PoolKind.MEMORY, body: { payload: { ...bad } } as never })).toBe('body.payload.subject: is longer than 512 characters')
  expect(poolBodyProblem({ kind: PoolKind.MEMORY, body: { payload: { ...payload, evidence: [ID, 'nope'] } } as never }))
    .toBe('body.payload.evidence[1]: must be 32 lowercase hex digits')
})
