// The consumer test's second page (not the README's): two browser contexts drive it to share a pool
// through `memweave relay` started from the installed package, and it calls every module once so the
// test can measure what the worker downloads for all of them.
import { createIdentity, createPoolToken, isMemweaveError, openMemory } from 'memweave'

let mem = null
let identity = null

window.consumer = {
  async open(name) {
    identity = await createIdentity()
    mem = await openMemory({ name, identity })
    return identity.did
  },
  async createPool() {
    return (await mem.pools.create({ name: 'team' })).id
  },
  async share(pool, did) {
    await mem.pools.share(pool, did, { write: true })
  },
  token(pool, sub) {
    return createPoolToken(identity, { pool, sub, write: true, expiresAt: Date.now() + 3_600_000 })
  },
  async connect(pool, url, token) {
    await mem.sync.connect(pool, { url, token })
  },
  async write(pool, object) {
    await mem.pools.write(pool, { type: 'KNOWLEDGE', content: { subject: 'standup', predicate: 'starts_at', object } })
  },
  async objects(pool) {
    try {
      return (await mem.pools.export(pool)).memories.map((m) => m.content.object).sort()
    } catch (err) {
      if (isMemweaveError(err) && err.code === 'NOT_FOUND') return null
      throw err
    }
  },
  async retrieve(query) {
    return (await mem.facts.retrieve(query, { budgetTokens: 500 })).map((hit) => hit.content)
  },
  async everyModule() {
    await mem.artifacts.create('team-notes', { body: 'Standups are short.\n' })
    await mem.small.projects()
    const task = await mem.working.open('task-1')
    await task.addObservation({ content: 'the build is green', sourceAgentId: 'agent-1' })
    return (await mem.artifacts.list()).map((a) => a.slug)
  },
}
document.querySelector('#state').textContent = 'ready'
