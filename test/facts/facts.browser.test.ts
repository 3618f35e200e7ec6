import { describe, expect, test } from 'vitest'
import { runConformance, formatReport } from '../../src/conformance/index.js'
import { DEFAULT_CAPABILITIES } from '../../src/index.js'
import { indexedDbStorage } from '../../src/storage/dexie-adapter.js'
import { dumpIndexedDb } from '../helpers/raw-indexeddb.js'
import { factStoreSuite } from './facts-suite.js'
import { indexedDbSessions } from '../conformance/sessions.js'

factStoreSuite('Dexie on real IndexedDB (Chromium)', {
  fresh() {
    const name = `facts-${crypto.randomUUID()}`
    return {
      options: (extra = {}) => ({ ...extra, storage: indexedDbStorage({ name }) }),
      raw: () => dumpIndexedDb(indexedDB, name),
    }
  },
})

describe('GMP conformance in a real browser', () => {
  test('every declared capability passes on real IndexedDB', async () => {
    const report = await runConformance(indexedDbSessions())
    if (report.violations.length) console.error(formatReport(report))
    expect(report.violations).toEqual([])
    expect(report.profile).toEqual([...DEFAULT_CAPABILITIES].sort())
  })
})
