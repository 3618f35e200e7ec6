import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import { indexedDbStorage } from '../../src/storage/dexie-adapter.js'
import { storageContract } from '../helpers/storage-contract.js'

storageContract('memory', async () => memoryStorage())
storageContract('Dexie on fake-indexeddb', async () =>
  indexedDbStorage({ name: `contract-${Math.random()}`, indexedDB: new IDBFactory(), IDBKeyRange }),
)
