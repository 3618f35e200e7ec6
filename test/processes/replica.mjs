// An honest replica in a process of its own (a device): a Memory on in-memory storage, from the
// build (dist/, `npm run build`), connected to a relay with an owner-signed token. It reads
// commands as JSON lines on stdin and answers as JSON lines on stdout. Used where one process
// holding every replica would measure the replicas' competition for one event loop, not the system.
//   argv: relayUrl pool token seedHex
//   {"cmd":"write","subject":"..","object":".."} -> {"written":"<id>"}
//   {"cmd":"count"} -> {"count": <live memories>}
import { createInterface } from 'node:readline'
import { WebSocket } from 'ws'
import { createIdentity, createMemory } from '../../dist/src/index.js'

const [url, pool, token, seedHex] = process.argv.slice(2)
const identity = await createIdentity({ seed: Uint8Array.from(Buffer.from(seedHex, 'hex')) })
const mem = await createMemory({ storage: 'memory', identity, sync: { WebSocketPolyfill: WebSocket } })
await mem.sync.connect(pool, { url, token })
const say = (o) => process.stdout.write(`${JSON.stringify(o)}\n`)
say({ ready: true })
for await (const line of createInterface({ input: process.stdin })) {
  const c = JSON.parse(line)
  try {
    if (c.cmd === 'write') {
      const m = await mem.pools.write(pool, { type: 'KNOWLEDGE', content: { subject: c.subject, predicate: 'is', object: c.object } })
      say({ written: m.id })
    } else if (c.cmd === 'count') {
      const n = await mem.pools.export(pool).then((e) => e.memories.length, () => -1)
      say({ count: n })
    } else if (c.cmd === 'close') break
  } catch (err) {
    say({ error: String(err?.code ?? err) })
  }
}
await mem.close()
process.exit(0)
