import { Dexie } from 'dexie'
import { expect, test } from 'vitest'
import { createMemory } from '../../src/index.js'
import { DEXIE_VERSIONS } from '../../src/storage/schema.js'
import { recordId } from '../../src/core/ids.js'

test('a database created by schema v1 upgrades in place and keeps every fact', async () => {
  const name = `migrate-${crypto.randomUUID()}`
  // Build the database exactly as release 1 did: only the v1 stores, rows in the v1 record format.
  const v1 = new Dexie(name)
  v1.version(1).stores(DEXIE_VERSIONS[0]!.stores)
  const body = {
    content: 'Aria lives in Rome',
    factId: '2862d73972ff536a2b338bde3c6f92c3',
    structuredId: null,
    metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Rome' },
    validFrom: 1577836800000000,
    writtenAt: 1577836800000000,
    supersedes: null,
    source: { writtenBy: null, signature: null, publicKey: null },
  }
  const unsigned = { kind: 'fact', tenant: 'A', body, author: null, hlc: '016f5e66e800.000000' }
  const id = recordId(unsigned)
  await v1.table('records').put({ id, ...unsigned })
  await v1.table('log').put({ ref: id, op: 'put' })
  await v1.table('meta').put({ key: 'note', value: 'written by v1' })
  expect(v1.verno).toBe(1)
  v1.close()

  const mem = await createMemory({ storage: 'indexeddb', name })
  const [m] = await mem.facts.retrieve('Aria', { tenantId: 'A', topK: 1 })
  expect(m).toMatchObject({ ref: id, content: 'Aria lives in Rome', tenantId: 'A', validFrom: '2020-01-01T00:00:00.000000+00:00' })
  const next = await mem.facts.supersede(id, 'Aria lives in Milan', { tenantId: 'A' })
  expect((await mem.facts.get(id))!.supersededBy).toBe(next)
  await mem.close()

  const check = new Dexie(name)
  await check.open()
  expect(check.verno).toBe(DEXIE_VERSIONS.at(-1)!.version)
  expect(check.tables.map((t) => t.name).sort()).toEqual(['log', 'meta', 'quarantine', 'records', 'requests', 'syncUpdates', 'vectors'])
  expect(await check.table('meta').get('note')).toMatchObject({ value: 'written by v1' })
  check.close()
})
