import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { indexedDbStorage } from '../../src/storage/dexie-adapter.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import { workingSuite } from './working-suite.js'

workingSuite('in-memory storage', {
  fresh() {
    const storage = memoryStorage()
    return { options: (extra = {}) => ({ ...extra, storage }) }
  },
})

workingSuite('Dexie over fake-indexeddb', {
  fresh() {
    const factory = new IDBFactory()
    const name = `working-${Math.random()}`
    return { options: (extra = {}) => ({ ...extra, storage: indexedDbStorage({ name, indexedDB: factory, IDBKeyRange }) }) }
  },
})
