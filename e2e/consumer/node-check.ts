// Type-checked by the consumer test in a Node-only project (lib ES2022, no DOM): the public types
// of 'memweave', 'memweave/node' and 'memweave/conformance' must compile without the DOM lib.
import { createIdentity, createMemory, isMemweaveError, type Memory, type RemoteMemory } from 'memweave'
import { GmpHttpClient, type RelayOptions } from 'memweave/node'
import { runConformance, type ConformanceReport } from 'memweave/conformance'

const agent = await createIdentity()
const mem: Memory = await createMemory({ storage: 'memory', identity: agent })
await mem.facts.write('The user prefers dark mode')
const hits = await mem.facts.retrieve('dark mode', { budgetTokens: 200 })
const options: RelayOptions = { port: 0 }
const remote: RemoteMemory | null = null
// The README's conformance run: a Memory's fact store is what the suite takes.
const report: ConformanceReport = await runConformance(async () => {
  const fresh = await createMemory({ storage: 'memory' })
  return { store: fresh.facts, close: () => fresh.close() }
})
console.log(hits.length, isMemweaveError(new Error('x')), typeof GmpHttpClient, options.port, remote, report.violations)
await mem.close()
