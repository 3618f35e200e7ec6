import type { Memory } from '../src/memory.js'

/**
 * The known data of the upgrade fixtures (issue 28) and how it is read back. The writer runs this
 * against an old commit's build (scripts/make-upgrade-fixtures.ts), so it uses only the public
 * Memory API that every fixture commit has (facts, pools, artifacts, small, working: unchanged
 * since 01f0bea); test/package/upgrade-fixtures.test.ts reads the same way with today's build.
 */

/** The fixed seeds: the owner's identity and the member a pool is shared with. */
export const OWNER_SEED = '11'.repeat(32)
export const MEMBER_SEED = '22'.repeat(32)

/** The writer's clock starts here and moves one minute before each step, so valid times are known. */
export const T0 = Date.UTC(2026, 0, 1)
export const STEP = 60_000

export interface Clock {
  now(): number
  tick(): number
}

export function clock(start = T0): Clock {
  let t = start
  return { now: () => t, tick: () => (t += STEP) }
}

/** What the writer learnt while writing: ids and instants the reader needs. */
export interface Written {
  readonly member: string
  /** A valid-time instant after 'Aria lives in Rome' and before its supersession. */
  readonly asOfBefore: number
  /** The hard-deleted fact: its ref (get answers null) and content (in no answer). */
  readonly deletedRef: string
  readonly deletedContent: string
  readonly supersededRef: string
  readonly poolId: string
  readonly forgottenMemory: string
  readonly taskId: string
  /** The clock when everything was written; reads happen at this instant. */
  readonly readAt: number
}

/** Writes some of everything a store holds: facts with a supersession and a hard delete, a shared pool with a forget, an artifact with two versions, SMALL documents, working memory with a conflict. */
export async function writeKnownData(mem: Memory, c: Clock, member: string): Promise<Written> {
  c.tick()
  const rome = await mem.facts.write('Aria lives in Rome', { metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Rome' } })
  c.tick()
  await mem.facts.write('Bo likes tea', { metadata: { importance: 0.8 } })
  await mem.facts.write('The sky over Lisbon was clear on Monday')
  const asOfBefore = c.tick()
  c.tick()
  const milan = await mem.facts.supersede(rome, 'Aria lives in Milan', { metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Milan' } })
  c.tick()
  await mem.facts.write('Aria lives in Paris', { metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Paris' } })
  const gone = await mem.facts.write('The vault code is 4417')
  c.tick()
  await mem.facts.delete(gone)
  void milan

  c.tick()
  const pool = await mem.pools.create({ name: 'team' })
  await mem.pools.share(pool.id, member, { write: true })
  await mem.pools.write(pool.id, { type: 'PREFERENCE', content: { subject: 'communication_style', predicate: 'prefers', object: 'bullet_points', context: 'technical_discussions' }, confidence: 0.9 })
  c.tick()
  await mem.pools.write(pool.id, { type: 'KNOWLEDGE', content: { subject: 'Aria', predicate: 'lives_in', object: 'Rome' }, confidence: 0.6 })
  await mem.pools.write(pool.id, { type: 'KNOWLEDGE', content: { subject: 'Aria', predicate: 'lives_in', object: 'Oslo' }, confidence: 0.7 })
  const forgotten = 'the secret handshake'
  const f = await mem.pools.write(pool.id, { type: 'KNOWLEDGE', content: { subject: 'Bo', predicate: 'knows', object: forgotten } })
  c.tick()
  await mem.pools.forget(f.id)

  c.tick()
  await mem.artifacts.create('notes', { body: 'first\n' })
  c.tick()
  await mem.artifacts.commit('notes', { body: 'first\nsecond\n', message: 'a second line' })
  await mem.artifacts.create('runbook', { body: '# Runbook\n\nRestart the relay.\n' })

  c.tick()
  await mem.small.put('plan', { small_version: '1.0.0', owner: 'agent', tasks: [{ id: 't1', title: 'Ship' }] })
  c.tick()
  await mem.small.put('plan', { small_version: '1.0.0', owner: 'agent', tasks: [{ id: 't1', title: 'Ship' }, { id: 't2', title: 'Test upgrades' }] })
  await mem.small.put('plan', { small_version: '1.0.0', owner: 'agent', tasks: [{ id: 'x1', title: 'Other project' }] }, { project: 'other' })

  c.tick()
  const taskId = 'deploy'
  const wm = await mem.working.open(taskId)
  const o1 = await wm.addObservation({ content: 'The deploy window opens at 09:00 UTC', sourceAgentId: 'agent-a', confidence: 0.6 })
  const o2 = await wm.addObservation({ content: 'The deploy window opens at 11:00 UTC', sourceAgentId: 'agent-b' })
  await wm.addObservation({ content: 'The database migration takes ten minutes', sourceAgentId: 'agent-a' })
  await wm.flagConflict(o1.id, o2.id, 'two opening times')

  return {
    member, asOfBefore, deletedRef: gone, deletedContent: 'The vault code is 4417', supersededRef: rome, poolId: pool.id,
    forgottenMemory: forgotten, taskId, readAt: c.tick(),
  }
}

/**
 * Everything the reader compares. A pool query records access (accessCount, lastAccessed, and the
 * importance that access reinforces, LCS-004), so those three fields are left out of the pool's
 * memories: they differ by how often the store was read, not by its format.
 */
export async function readBack(mem: Memory, w: Written): Promise<Record<string, unknown>> {
  const pools = await mem.pools.list()
  const out: Record<string, unknown> = {
    audit: await mem.facts.audit(),
    current: await mem.facts.retrieve('Aria lives', { topK: 10 }),
    asOf: await mem.facts.retrieve('Aria lives', { asOf: new Date(w.asOfBefore), topK: 10 }),
    superseded: await mem.facts.get(w.supersededRef),
    deleted: await mem.facts.get(w.deletedRef),
    factConflicts: await mem.facts.conflicts(),
    pools,
    artifacts: await mem.artifacts.list(),
    notes: await mem.artifacts.read('notes'),
    notesLog: await mem.artifacts.log('notes'),
    runbook: await mem.artifacts.read('runbook'),
    plan: await mem.small.get('plan'),
    otherPlan: await mem.small.get('plan', { project: 'other' }),
  }
  const wm = await mem.working.open(w.taskId)
  out['observations'] = await wm.observations()
  out['wmConflicts'] = await wm.getConflicts({ includeResolved: true })
  for (const p of pools) {
    out[`pool ${p.id} info`] = await mem.pools.info(p.id)
    out[`pool ${p.id} conflicts`] = await mem.pools.conflicts(p.id)
    out[`pool ${p.id} forgotten`] = await mem.pools.forgotten(p.id)
    out[`pool ${p.id} memories`] = withoutAccess(await mem.pools.query(p.id))
  }
  // JSON form: what expected.json holds (dates as strings, no undefined fields).
  return JSON.parse(JSON.stringify(out)) as Record<string, unknown>
}

function withoutAccess(list: readonly object[]): object[] {
  return list.map((m) => {
    const { accessCount: _c, lastAccessed: _l, importance: _i, ...rest } = m as Record<string, unknown>
    return rest
  })
}
