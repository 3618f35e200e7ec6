// A process that opens an upgrade fixture's store with today's build and writes one fact (the
// commit that writes the format marker), killing itself with SIGKILL right after its Nth step
// that may change the directory: an open (which may create or truncate), a write, truncate,
// fsync, rename or unlink. Run by
// test/upgrade-atomic.test.ts:
//   node --import tsx test/upgrade-crash-child.ts <dir> <N> <readAt>
// Prints `steps <count>` when it finished without reaching step N.
import fs from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'

const [dir, n, readAt] = process.argv.slice(2)
const killAt = Number(n)
let steps = 0
function step(): void {
  if (++steps === killAt) process.kill(process.pid, 'SIGKILL')
}

// Wrapped before the storage modules load, so their named imports of node:fs/promises see the wrappers.
const probe = await fs.promises.open(dir!, 'r')
const handle = Object.getPrototypeOf(probe) as Record<string, (...args: unknown[]) => Promise<unknown>>
await probe.close()
const p = fs.promises as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>
for (const name of ['open', 'rename', 'unlink'] as const) {
  const real = p[name]!
  p[name] = async (...args) => {
    const out = await real(...args)
    step()
    return out
  }
}
syncBuiltinESMExports()
for (const name of ['write', 'truncate', 'datasync', 'sync'] as const) {
  const real = handle[name]!
  handle[name] = async function (this: unknown, ...args) {
    const out = await real.apply(this, args)
    step()
    return out
  }
}

const { createIdentity, createMemory } = await import('../src/index.js')
const { fileStorage } = await import('../src/node/index.js')
const { OWNER_SEED } = await import('../scripts/upgrade-fixture-data.js')
const mem = await createMemory({ storage: fileStorage({ dir: dir! }), identity: await createIdentity({ seed: OWNER_SEED }), now: () => Number(readAt) })
await mem.facts.write('Written during the first open')
await mem.close()
console.log(`steps ${steps}`)
