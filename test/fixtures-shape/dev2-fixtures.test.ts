/**
 * The dev2 set's shape (issue 27, session 10; test/fixtures/README.md): the conversations read as
 * scripts/eval-conflict-store.ts reads LoCoMo, every pointer lands on a turn, the pairs carry valid
 * labels and types, and every pair is on the split. Shape only: nothing here runs the detector, so
 * its author never sees a flag.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const fixtures = resolve(import.meta.dirname, '../fixtures')
const readJson = (name: string): unknown => JSON.parse(readFileSync(resolve(fixtures, name), 'utf8'))

interface Turn { speaker: string; dia_id: string; text: string }
interface Change { a: string; b: string; kind: string; note: string }
interface Conversation {
  sample_id: string
  conversation: Record<string, unknown>
  observation: Record<string, Record<string, Array<[string, string]>>>
  changes: Change[]
}
interface Pair { id: string; type: string; label: string; a: string; b: string; why: string }

// LoCoMo's session stamp, as scripts/eval-retrieval.ts parses it: "7:42 pm on 6 January, 2024".
const SESSION_DATE = /^\d{1,2}:\d{2} (am|pm) on \d{1,2} (January|February|March|April|May|June|July|August|September|October|November|December), \d{4}$/

/** Every way one conversation breaks the shape, as readable lines (empty when it holds). */
function conversationProblems(c: Conversation): string[] {
  const out: string[] = []
  const conv = c.conversation
  const speakers = [conv['speaker_a'], conv['speaker_b']]
  if (typeof speakers[0] !== 'string' || typeof speakers[1] !== 'string' || speakers[0] === speakers[1]) out.push(`${c.sample_id}: two distinct speakers`)
  const sessions = Object.keys(conv).map((k) => /^session_(\d+)$/.exec(k)).filter((m) => m !== null).map((m) => Number(m[1])).sort((a, b) => a - b)
  if (sessions.some((s, i) => s !== i + 1)) out.push(`${c.sample_id}: sessions numbered 1..n`)
  const turns = new Set<string>()
  for (const s of sessions) {
    const date = conv[`session_${s}_date_time`]
    if (typeof date !== 'string' || !SESSION_DATE.test(date)) out.push(`${c.sample_id}: session ${s} date ${String(date)}`)
    ;(conv[`session_${s}`] as Turn[]).forEach((t, i) => {
      if (t.dia_id !== `D${s}:${i + 1}`) out.push(`${c.sample_id}: turn ${t.dia_id} out of order`)
      if (turns.has(t.dia_id)) out.push(`${c.sample_id}: turn ${t.dia_id} twice`)
      turns.add(t.dia_id)
      if (!speakers.includes(t.speaker)) out.push(`${c.sample_id}: ${t.dia_id} speaker ${t.speaker}`)
      if (!t.text.trim()) out.push(`${c.sample_id}: ${t.dia_id} empty`)
    })
  }
  const pointed = new Set<string>()
  for (const [key, bySpeaker] of Object.entries(c.observation)) {
    const m = /^session_(\d+)_observation$/.exec(key)
    if (!m || !sessions.includes(Number(m[1]))) out.push(`${c.sample_id}: observation key ${key}`)
    for (const [who, list] of Object.entries(bySpeaker)) {
      if (!speakers.includes(who)) out.push(`${c.sample_id}: observations of ${who}`)
      for (const [text, ref] of list) {
        if (!turns.has(ref)) out.push(`${c.sample_id}: observation "${text}" points at ${ref}, no such turn`)
        else if (m && !ref.startsWith(`D${m[1]}:`)) out.push(`${c.sample_id}: observation "${text}" points outside its session`)
        if (!text.trim()) out.push(`${c.sample_id}: empty observation at ${ref}`)
        pointed.add(ref)
      }
    }
  }
  for (const ch of c.changes) {
    for (const side of [ch.a, ch.b]) {
      if (!turns.has(side)) out.push(`${c.sample_id}: change "${ch.note}" names ${side}, no such turn`)
      else if (!pointed.has(side)) out.push(`${c.sample_id}: change "${ch.note}": no observation points at ${side}`)
    }
    if (ch.a === ch.b) out.push(`${c.sample_id}: change "${ch.note}" names one turn twice`)
    if (ch.kind !== 'change' && ch.kind !== 'contradiction') out.push(`${c.sample_id}: change kind ${ch.kind}`)
    if (!ch.note.trim()) out.push(`${c.sample_id}: change without a note`)
  }
  return out
}

const conversations = (): Conversation[] => (readJson('conversations-dev2.json') as { conversations: Conversation[] }).conversations
const pairs = (): Pair[] => (readJson('conflict-pairs-dev2.json') as { pairs: Pair[] }).pairs

describe('conversations-dev2.json', () => {
  it('holds dev2-1..dev2-4, each in the shape the store eval reads', () => {
    const cs = conversations()
    expect(cs.map((c) => c.sample_id)).toEqual(['dev2-1', 'dev2-2', 'dev2-3', 'dev2-4'])
    expect(cs.flatMap(conversationProblems)).toEqual([])
  })

  it('gives each conversation 14-16 sessions, 180-200 turns, about 100 observations, 4-5 changes and 2 contradictions', () => {
    for (const c of conversations()) {
      const sessions = Object.keys(c.conversation).filter((k) => /^session_\d+$/.test(k))
      const turns = sessions.reduce((n, k) => n + (c.conversation[k] as Turn[]).length, 0)
      const observations = Object.values(c.observation).reduce((n, s) => n + Object.values(s).reduce((m, l) => m + l.length, 0), 0)
      const kinds = c.changes.map((ch) => ch.kind)
      expect({ id: c.sample_id, sessions: sessions.length >= 14 && sessions.length <= 16, turns: turns >= 180 && turns <= 200, observations: observations >= 90 && observations <= 115 }).toEqual({ id: c.sample_id, sessions: true, turns: true, observations: true })
      expect(kinds.filter((k) => k === 'change').length).toBeGreaterThanOrEqual(4)
      expect(kinds.filter((k) => k === 'change').length).toBeLessThanOrEqual(5)
      expect(kinds.filter((k) => k === 'contradiction')).toHaveLength(2)
    }
  })

  it('catches a pointer to a turn that does not exist and a change naming one', () => {
    // The checker itself must be able to fail: break a copy and read what it says.
    const broken = structuredClone(conversations()[0]!)
    const first = Object.values(broken.observation['session_1_observation']!)[0]!
    first[0] = [first[0]![0], 'D1:999']
    broken.changes[0] = { ...broken.changes[0]!, b: 'D99:1' }
    const problems = conversationProblems(broken)
    expect(problems.some((p) => p.includes('points at D1:999'))).toBe(true)
    expect(problems.some((p) => p.includes('names D99:1'))).toBe(true)
  })
})

describe('conflict-pairs-dev2.json', () => {
  it('holds 80 pairs d2-001..d2-080 with valid types and labels, 32 conflict / 28 compatible / 20 unrelated', () => {
    const ps = pairs()
    expect(ps.map((p) => p.id)).toEqual(Array.from({ length: 80 }, (_, i) => `d2-${String(i + 1).padStart(3, '0')}`))
    const bad = ps.filter((p) => !['FACT', 'EVENT', 'PREFERENCE', 'SKILL', 'INSTRUCTION'].includes(p.type) || !['conflict', 'compatible', 'unrelated'].includes(p.label) || !p.a.trim() || !p.b.trim() || p.a === p.b || !p.why.trim())
    expect(bad).toEqual([])
    const count = (label: string): number => ps.filter((p) => p.label === label).length
    expect([count('conflict'), count('compatible'), count('unrelated')]).toEqual([32, 28, 20])
  })

  it('has no pair twice, in either order', () => {
    const keys = pairs().map((p) => [p.a.toLowerCase(), p.b.toLowerCase()].sort().join('\u0000'))
    expect(new Set(keys).size).toBe(keys.length)
  })

  it('puts every pair on the dev side of conflict-dev2-split.json and none on the holdout', () => {
    const split = readJson('conflict-dev2-split.json') as { dev: string[]; holdout: string[] }
    expect([...split.dev].sort()).toEqual(pairs().map((p) => p.id).sort())
    expect(split.holdout).toEqual([])
  })
})
