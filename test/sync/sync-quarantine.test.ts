import fc from 'fast-check'
import { expect, test } from 'vitest'
import * as Y from 'yjs'
import { RECORDS_MAP } from '../../src/sync/index.js'
import { toQuarantineRow } from '../../src/sync/quarantine.js'
import { fact } from '../helpers/pools-helpers.js'
import { network, settle, useDevices } from '../helpers/sync-helpers.js'

/**
 * Issue 13, "Hostile peers" 1: whatever value a peer puts into a pool's records map, its quarantine
 * row is storable (structured-cloneable, plain JSON, bounded) and honest records still land. The
 * values are random Yjs values: nested shared types (Y.Map, Y.Array, Y.Text, XML), binary, undefined,
 * null, huge strings, odd numbers, bigints, arrays and objects of those.
 */

/** A builder, not a value: a Yjs shared type can be integrated into a document only once. */
type Build = () => unknown

const leaf: fc.Arbitrary<Build> = fc.oneof(
  fc.constant<Build>(() => null),
  fc.constant<Build>(() => undefined),
  fc.boolean().map((b): Build => () => b),
  fc.double().map((n): Build => () => n),
  fc.integer().map((n): Build => () => n),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((n): Build => () => n),
  fc.string({ maxLength: 40 }).map((s): Build => () => s),
  fc.nat({ max: 200_000 }).map((n): Build => () => 'z'.repeat(n)),
  fc.uint8Array({ maxLength: 64 }).map((u): Build => () => u),
)

/** JSON-like values Yjs carries as ContentAny (no shared types inside them). */
const any: fc.Arbitrary<Build> = fc.letrec<{ any: Build }>((tie) => ({
  any: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('any'), { maxLength: 5 }).map((xs): Build => () => xs.map((x) => x())),
    fc.dictionary(fc.string({ maxLength: 8 }), tie('any'), { maxKeys: 5 }).map((o): Build => () => Object.fromEntries(Object.entries(o).map(([k, x]) => [k, x()]))),
  ),
})).any

/** Shared types, nested in each other, holding any of the above. */
const shared: fc.Arbitrary<Build> = fc.letrec<{ shared: Build; item: Build }>((tie) => ({
  item: fc.oneof({ depthSize: 'small' }, any, tie('shared')),
  shared: fc.oneof(
    { depthSize: 'small' },
    fc.dictionary(fc.string({ maxLength: 8 }), tie('item'), { maxKeys: 4 }).map((o): Build => () => new Y.Map(Object.entries(o).map(([k, x]) => [k, x()]))),
    fc.array(tie('item'), { maxLength: 4 }).map((xs): Build => () => Y.Array.from(xs.map((x) => x()) as never[])),
    fc.string({ maxLength: 30 }).map((s): Build => () => new Y.Text(s)),
    fc.constant<Build>(() => new Y.XmlFragment()),
    fc.string({ maxLength: 10 }).map((s): Build => () => new Y.XmlText(s)),
    fc.constant<Build>(() => new Y.Doc()),
  ),
})).shared

/** Whether Yjs itself takes the value (a Y.Array refuses undefined and bigints, for one): a peer can only send what its Yjs encodes. */
function yjsTakes(build: Build): boolean {
  const doc = new Y.Doc()
  try {
    doc.getMap('m').set('k', build())
    return true
  } catch {
    return false
  } finally {
    doc.destroy()
  }
}

const value = fc.oneof(any, shared).filter(yjsTakes)

test('the quarantine row of any Yjs value is plain, bounded JSON that any store can clone', () => {
  fc.assert(
    fc.property(value, (build) => {
      const doc = new Y.Doc()
      const map = doc.getMap(RECORDS_MAP)
      map.set('k', build())
      const row = toQuarantineRow({ pool: 'p'.repeat(32) as never, key: 'k', reason: 'malformed', detail: 'x', kind: null, author: null }, map.get('k'))
      expect(() => structuredClone(row)).not.toThrow()
      expect(JSON.parse(JSON.stringify(row))).toEqual(row)
      expect(JSON.stringify(row).length).toBeLessThan(70_000)
      doc.destroy()
    }),
    // -0 once failed here (seed 335378635): JSON writes it as 0.
    { numRuns: 300, examples: [[() => -0], [() => [-0, { z: -0 }]]] },
  )
})

const setup = useDevices(13)

test('whatever values a peer puts into the records map, honest records land on every replica and the quarantine is stored', async () => {
  const { d } = await setup(['alice', 'bob'] as const)
  const net = network()
  const pool = (await d.alice.mem.pools.create({ name: 'household' })).id
  await d.alice.mem.pools.share(pool, d.bob.id.did, { write: true })
  for (const x of [d.alice, d.bob]) await x.mem.sync.attach(pool, net.provider(x.name))
  const evil = new Y.Doc()
  net.provider('mallory').connect(pool, evil, () => undefined)
  const map = evil.getMap(RECORDS_MAP)
  let run = 0
  const expected: string[] = []
  await fc.assert(
    fc.asyncProperty(fc.array(value, { minLength: 1, maxLength: 4 }), async (builds) => {
      run++
      evil.transact(() => builds.forEach((b, i) => map.set(`junk-${run}-${i}`, b())))
      const writer = run % 2 ? d.alice : d.bob
      await writer.mem.pools.write(pool, fact(`subject ${run}`, 'is', `honest ${run}`))
      expected.push(`honest ${run}`)
      await settle(net, [d.alice.mem, d.bob.mem])
      for (const x of [d.alice, d.bob]) {
        const objects = (await x.mem.pools.export(pool)).memories.map((m) => String(m.content.object))
        expect(objects.sort()).toEqual([...expected].sort())
        const status = await x.mem.sync.status()
        expect(status.pools[0]!.error).toBeNull()
        // Every refused value has its row in storage, not only in memory.
        const rows = x.storage.dump()['quarantine'] as Array<{ key: string }>
        const junk = [...map.keys()].filter((k) => k.startsWith('junk-')).sort()
        expect(rows.map((r) => r.key).filter((k) => k.startsWith('junk-')).sort()).toEqual(junk)
      }
    }),
    { numRuns: 25 },
  )
}, 120_000)
