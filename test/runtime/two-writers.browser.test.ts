import { indexedDbStorage } from '../../src/storage/dexie-adapter.js'
import { twoWritersSuite } from './two-writers-suite.js'

twoWritersSuite('real IndexedDB (Chromium)', (name) => indexedDbStorage({ name }))
