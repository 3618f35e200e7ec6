/**
 * Shape checks shared by the hand-written conversation and pair sets written for issue 27 (dev2,
 * dev3, dev4; test/fixtures/README.md). Shape only: nothing here runs the detector, so a set's author
 * never sees a flag.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'

const fixtures = resolve(import.meta.dirname, '../fixtures')
export const readFixture = (name: string): unknown => JSON.parse(readFileSync(resolve(fixtures, name), 'utf8'))

export interface Turn { speaker: string; dia_id: string; text: string }
export interface Change { a: string; b: string; kind: string; note: string }
export interface Conversation {
  sample_id: string
  conversation: Record<string, unknown>
  observation: Record<string, Record<string, Array<[string, string]>>>
  changes: Change[]
}
export interface Pair { id: string; type: string; label: string; a: string; b: string; why: string }

export const PAIR_TYPES = ['FACT', 'EVENT', 'PREFERENCE', 'SKILL', 'INSTRUCTION'] as const
export const PAIR_LABELS = ['conflict', 'compatible', 'unrelated'] as const

// LoCoMo's session stamp, as scripts/eval-retrieval.ts parses it: "7:42 pm on 6 January, 2024".
const SESSION_DATE = /^\d{1,2}:\d{2} (am|pm) on \d{1,2} (January|February|March|April|May|June|July|August|September|October|November|December), \d{4}$/

/** Every way one conversation breaks the shape, as readable lines (empty when it holds). */
export function conversationProblems(c: Conversation): string[] {
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

/** A conversation's sizes, as the sets' briefs state them. */
export function conversationSizes(c: Conversation): { sessions: number; turns: number; observations: number; changes: number; contradictions: number } {
  const sessions = Object.keys(c.conversation).filter((k) => /^session_\d+$/.test(k))
  const kinds = c.changes.map((ch) => ch.kind)
  return {
    sessions: sessions.length,
    turns: sessions.reduce((n, k) => n + (c.conversation[k] as Turn[]).length, 0),
    observations: Object.values(c.observation).reduce((n, s) => n + Object.values(s).reduce((m, l) => m + l.length, 0), 0),
    changes: kinds.filter((k) => k === 'change').length,
    contradictions: kinds.filter((k) => k === 'contradiction').length,
  }
}

/** Pairs with an unknown type or label, an empty side or reason, or one text on both sides. */
export function badPairs(ps: readonly Pair[]): Pair[] {
  return ps.filter((p) => !(PAIR_TYPES as readonly string[]).includes(p.type) || !(PAIR_LABELS as readonly string[]).includes(p.label) || !p.a.trim() || !p.b.trim() || p.a === p.b || !p.why.trim())
}

/** How many keys name the same two texts, in either order, more than once. */
export function repeatedPairs(ps: readonly Pair[]): number {
  const keys = ps.map((p) => [p.a.toLowerCase(), p.b.toLowerCase()].sort().join('\u0000'))
  return keys.length - new Set(keys).size
}
