// A process that opens an upgrade fixture's store with today's build (dist/, `npm run build`) and
// writes one fact (the commit that writes the format marker), killing itself with SIGKILL right
// after its Nth step that may change the directory: an open (which may create or truncate), a
// write, truncate, fsync, rename or unlink. Plain JavaScript against the build, so a child starts
// in a fraction of the time tsx takes to compile the sources for each of the ~26 children. Run by
// test/package/upgrade-atomic.test.ts:
//   node test/processes/upgrade-crash-child.mjs <dir> <N> <readAt> <owner seed hex>
// Prints `steps <count>` when it finished without reaching step N.
import fs from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'

const [dir, n, readAt, seedHex] = process.argv.slice(2)
const killAt = Number(n)
let steps = 0
function step() {
  if (++steps === killAt) process.kill(process.pid, 'SIGKILL')
}

// Wrapped before the storage modules load, so their named imports of node:fs/promises see the wrappers.
const probe = await fs.promises.open(dir, 'r')
const handle = Object.getPrototypeOf(probe)
await probe.close()
const p = fs.promises
for (const name of ['open', 'rename', 'unlink']) {
  const real = p[name]
  p[name] = async (...args) => {
    const out = await real(...args)
    step()
    return out
  }
}
syncBuiltinESMExports()
for (const name of ['write', 'truncate', 'datasync', 'sync']) {
  const real = handle[name]
  handle[name] = async function (...args) {
    const out = await real.apply(this, args)
    step()
    return out
  }
}

const { createIdentity, createMemory } = await import('../../dist/src/index.js')
const { fileStorage } = await import('../../dist/src/node/index.js')
const mem = await createMemory({ storage: fileStorage({ dir }), identity: await createIdentity({ seed: seedHex }), now: () => Number(readAt) })
await mem.facts.write('Written during the first open')
await mem.close()
console.log(`steps ${steps}`)
