import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { indexedDbStorage } from '../../src/storage/dexie-adapter.js'
import { twoWritersSuite } from './two-writers-suite.js'

const indexedDB = new IDBFactory()
twoWritersSuite('fake-indexeddb', (name) => indexedDbStorage({ name, indexedDB, IDBKeyRange }))
