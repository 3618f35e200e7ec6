import type { Memory } from '../../src/memory.js'
import { fact, pref } from '../helpers/pools-helpers.js'

/** Writes some of everything a backup carries, with a hard delete, a supersession, a forget and conflicts in it. Returns the deleted fact's content. */
export async function populate(mem: Memory, member: string): Promise<{ deletedFact: string; forgottenMemory: string }> {
  const a = await mem.facts.write('Aria lives in Rome', { metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Rome' } })
  await mem.facts.write('Aria lives in Paris', { metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Paris' } })
  await mem.facts.supersede(a, 'Aria lives in Milan', { metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Milan' } })
  const gone = await mem.facts.write('The vault code is 4417')
  await mem.facts.write('Bo likes tea')
  await mem.facts.delete(gone)

  const pool = await mem.pools.create()
  await mem.pools.share(pool.id, member, { write: true })
  await mem.pools.write(pool.id, pref('bullet_points'))
  await mem.pools.write(pool.id, fact('Aria', 'lives_in', 'Rome', { confidence: 0.6 }))
  await mem.pools.write(pool.id, fact('Aria', 'lives_in', 'Oslo', { confidence: 0.7 }))
  const forget = await mem.pools.write(pool.id, fact('Bo', 'knows', 'the secret handshake'))
  await mem.pools.forget(forget.id)

  await mem.artifacts.create('notes', { body: 'first\n' })
  await mem.artifacts.commit('notes', { body: 'first\nsecond\n', message: 'a second line' })
  await mem.small.put('plan', { small_version: '1.0.0', owner: 'agent', tasks: [{ id: 't1', title: 'Ship' }] })

  const wm = await mem.working.open('task')
  const o1 = await wm.addObservation({ content: 'The deploy window opens at 09:00 UTC', sourceAgentId: 'agent-a', confidence: 0.6 })
  const o2 = await wm.addObservation({ content: 'The deploy window opens at 11:00 UTC', sourceAgentId: 'agent-b' })
  await wm.flagConflict(o1.id, o2.id, 'two opening times')
  return { deletedFact: 'The vault code is 4417', forgottenMemory: 'the secret handshake' }
}

/** What a person asks a memory: every module's reads that do not write (pools.query records access, so it comes last). */
export async function answers(mem: Memory): Promise<Record<string, unknown>> {
  const pools = await mem.pools.list()
  const out: Record<string, unknown> = {
    audit: await mem.facts.audit(),
    factConflicts: await mem.facts.conflicts(),
    pools,
    artifacts: await mem.artifacts.list(),
    notes: await mem.artifacts.read('notes'),
    notesLog: await mem.artifacts.log('notes'),
    plan: await mem.small.get('plan'),
  }
  const wm = await mem.working.open('task')
  out['observations'] = await wm.observations()
  out['wmConflicts'] = await wm.getConflicts({ includeResolved: true })
  for (const p of pools) {
    out[`pool ${p.id} conflicts`] = await mem.pools.conflicts(p.id)
    out[`pool ${p.id} forgotten`] = await mem.pools.forgotten(p.id)
    out[`pool ${p.id} memories`] = await mem.pools.query(p.id)
  }
  return out
}

/** The record lines of a backup, sorted: equal sets mean the same records with the same ids and signatures. */
export function recordLines(lines: readonly string[]): string[] {
  return lines.filter((l) => l.startsWith('{"type":"record"')).sort()
}

export async function collect(source: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = []
  for await (const line of source) out.push(line)
  return out
}
