import { describe, expect, test } from 'vitest'
import { FactState } from '../../src/facts/state.js'
import type { StoredRecord } from '../../src/storage/schema.js'
import { mulberry32 } from '../../src/conformance/bootstrap.js'

/** A record set with a chain, a deletion inside it, a fork, and a structured contradiction. */
function records(): StoredRecord[] {
  let n = 0
  const fact = (id: string, content: string, supersedes: string | null, validFrom: number, metadata: Record<string, unknown> = {}): StoredRecord => ({
    id, kind: 'fact', tenant: 'T', author: null, hlc: `${String(++n).padStart(12, '0')}.000000`,
    body: { content, factId: id, structuredId: null, metadata, validFrom, writtenAt: validFrom, supersedes, source: { writtenBy: null, signature: null, publicKey: null } },
  })
  const tomb = (id: string, target: string, supersedes: string | null): StoredRecord => ({
    id, kind: 'tombstone', tenant: 'T', author: null, hlc: `${String(++n).padStart(12, '0')}.000000`, body: { target, supersedes },
  })
  return [
    fact('a', 'Widget costs 10', null, 10),
    fact('b', 'Widget costs 12', 'a', 20),
    fact('c', 'Widget costs 15', 'b', 30),
    tomb('tb', 'b', 'a'),
    fact('d', 'Widget costs 16', 'c', 40),
    fact('e', 'Widget costs 17', 'c', 41),
    fact('x', 'Aria lives in Rome', null, 5, { subject: 'Aria', predicate: 'lives_in', object: 'Rome' }),
    fact('y', 'Aria lives in Milan', null, 6, { subject: 'Aria', predicate: 'lives_in', object: 'Milan' }),
  ]
}

function snapshot(state: FactState): unknown {
  return {
    versions: [...state.versions.keys()].sort(),
    heads: state.heads('T').map((v) => v.ref).sort(),
    links: [...state.versions.keys()].sort().map((r) => [r, state.supersededBy(r), state.validUntil(r)]),
    conflicts: state.conflicts(undefined).map((c) => `${c.kind}:${c.refs.join('+')}`).sort(),
    at25: state.validAt('T', 25).map((v) => v.ref).sort(),
  }
}

describe('the materialized state is a function of the record set, not of arrival order', () => {
  test('50 seeded permutations converge to one state', () => {
    const reference = new FactState(new Set())
    for (const r of records()) reference.apply(r)
    const expected = snapshot(reference)
    expect(expected).toMatchObject({
      versions: ['a', 'c', 'd', 'e', 'x', 'y'],
      heads: ['d', 'e', 'x', 'y'],
      at25: ['a', 'x', 'y'],
    })
    for (let seed = 1; seed <= 50; seed++) {
      const rand = mulberry32(seed)
      const shuffled = records()
      for (let i = shuffled.length - 1; i > 0; i--) {
        const j = Math.floor(rand() * (i + 1))
        ;[shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!]
      }
      const state = new FactState(new Set())
      for (const r of shuffled) state.apply(r)
      const got = snapshot(state)
      if (JSON.stringify(got) !== JSON.stringify(expected)) {
        throw new Error(`diverged for seed ${seed} (order ${shuffled.map((r) => r.id).join(',')}); repro: npx vitest run test/facts/fact-state.test.ts`)
      }
    }
  })
})

describe('issue 31: what a fact read from storage holds is shared, never changed', () => {
  const stored = (id: string, subject: string): StoredRecord => structuredClone({
    id, kind: 'fact', tenant: 'T', author: null, hlc: `${id.padStart(12, '0')}.000000`,
    body: {
      content: `${subject} lives in Rome (${id})`, factId: id, structuredId: null, metadata: { subject, predicate: 'lives_in', object: 'Rome', note: `n${id}` },
      validFrom: 1, writtenAt: 1, supersedes: null, source: { writtenBy: null, signature: null, publicKey: null },
    },
  })

  test('two unsigned facts share one all-null source; metadata keeps its values; a frozen (own) record is left as it is', () => {
    const state = new FactState(new Set())
    const a = stored('1', 'Aria Rossi'), b = stored('2', 'Aria Rossi')
    const own = stored('3', 'Aria Rossi')
    const signed = stored('4', 'Ben Novak')
    ;(signed.body as { source: unknown }).source = { writtenBy: 'did:key:z', signature: 'ab', publicKey: 'cd' }
    Object.freeze(own.body)
    Object.freeze((own.body as { source: object }).source)
    const ownSource = (own.body as { source: object }).source
    for (const r of [a, b, own, signed]) state.apply(r)
    const body = (ref: string): { source: unknown; metadata: Record<string, unknown> } => state.versions.get(ref)!.body as never
    expect(body('1').source).toBe(body('2').source)
    expect(body('1').source).toEqual({ writtenBy: null, signature: null, publicKey: null })
    expect(body('3').source).toBe(ownSource)
    expect(body('4').source).toEqual({ writtenBy: 'did:key:z', signature: 'ab', publicKey: 'cd' })
    expect(body('1').metadata).toEqual({ subject: 'Aria Rossi', predicate: 'lives_in', object: 'Rome', note: 'n1' })
    expect(body('4').metadata).toEqual({ subject: 'Ben Novak', predicate: 'lives_in', object: 'Rome', note: 'n4' })
    // The two Aria facts share one slot (a structured contradiction needs the same key).
    expect(state.versions.get('1')!.slot).toBe(state.versions.get('2')!.slot)
    expect(state.versions.get('1')!.slot).toBe('T\u001faria rossi\u001flives_in')
  })
})
