// Type-checked by the consumer test in a Node-only project (lib ES2022, no DOM): the public types
// of 'memweave' and 'memweave/node' must compile without the DOM lib.
import { createIdentity, createMemory, isMemweaveError, type Memory, type RemoteMemory } from 'memweave'
import { GmpHttpClient, type RelayOptions } from 'memweave/node'

const agent = await createIdentity()
const mem: Memory = await createMemory({ storage: 'memory', identity: agent })
await mem.facts.write('The user prefers dark mode')
const hits = await mem.facts.retrieve('dark mode', { budgetTokens: 200 })
const options: RelayOptions = { port: 0 }
const remote: RemoteMemory | null = null
console.log(hits.length, isMemweaveError(new Error('x')), typeof GmpHttpClient, options.port, remote)
await mem.close()
