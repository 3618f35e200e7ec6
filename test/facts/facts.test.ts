import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import { indexedDbStorage } from '../../src/storage/dexie-adapter.js'
import { dumpIndexedDb } from '../helpers/raw-indexeddb.js'
import { factStoreSuite } from './facts-suite.js'

factStoreSuite('in-memory storage', {
  fresh() {
    const storage = memoryStorage()
    return {
      options: (extra = {}) => ({ ...extra, storage }),
      raw: async () => JSON.stringify(storage.dump(), (_k, v) => (ArrayBuffer.isView(v) ? Array.from(v as Uint8Array) : v)),
    }
  },
})

factStoreSuite('Dexie over fake-indexeddb', {
  fresh() {
    const factory = new IDBFactory()
    const name = `facts-${Math.random()}`
    return {
      options: (extra = {}) => ({ ...extra, storage: indexedDbStorage({ name, indexedDB: factory, IDBKeyRange }) }),
      raw: () => dumpIndexedDb(factory, name),
    }
  },
})
