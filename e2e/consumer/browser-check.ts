// Type-checked by the consumer test in a browser project (lib DOM): the page API as an app uses it.
import { isMemweaveError, loadOrCreateIdentity, openMemory, type FactStore, type RemoteMemory } from 'memweave'

const identity = await loadOrCreateIdentity('planner')
const mem: RemoteMemory = await openMemory({ name: 'my-app', identity, workerTimeoutMs: 5_000 })
const facts: FactStore = mem.facts
const stop = await facts.subscribe('user preferences', { topK: 5 }, (hits) => console.log(hits.map((h) => h.content)))
try {
  await facts.write('The user prefers dark mode')
} catch (err) {
  if (isMemweaveError(err) && err.code === 'WORKER_FAILED') console.error(err.message)
}
await stop()
console.log(mem.runtime.mode)
await mem.close()
