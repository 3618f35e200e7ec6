import { indexedDbStorage } from '../../src/storage/dexie-adapter.js'
import { storageContract } from '../helpers/storage-contract.js'

storageContract('Dexie on real IndexedDB (Chromium)', async () => indexedDbStorage({ name: `contract-${crypto.randomUUID()}` }))
