import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { createMemory } from '../../src/index.js'
import { LexicalIndex } from '../../src/facts/lexical-index.js'
import { pack, rank } from '../../src/facts/rank.js'
import { terms } from '../../src/facts/text.js'
import { versionFromRecord, type FactBody, type Version } from '../../src/facts/version.js'
import { DEV_CONVERSATIONS, formatSummary, runEval, type EvalResult } from '../../scripts/eval-retrieval.js'
import { SHARED_DIR } from '../helpers/shared-path.js'

/** A memory on a fixed clock: the same writes give the same refs, write times and order. */
async function memoryOn(start = Date.UTC(2025, 0, 1)) {
  let tick = start
  return createMemory({ storage: 'memory', now: () => tick++ })
}

const day = (n: number): string => new Date(Date.UTC(2024, 0, 1 + n)).toISOString()

/** A Version as the store would build it, for calling rank() and pack() directly. */
function version(ref: string, content: string, opts: { writtenAt?: number; importance?: number; validFrom?: number } = {}): Version {
  const writtenAt = opts.writtenAt ?? 1_700_000_000_000_000
  const body: FactBody = {
    content,
    factId: `f-${ref}`,
    structuredId: null,
    metadata: opts.importance === undefined ? {} : { importance: opts.importance },
    validFrom: opts.validFrom ?? writtenAt,
    writtenAt,
    supersedes: null,
    source: { writtenBy: null, signature: null, publicKey: null },
  }
  return versionFromRecord({ id: ref, kind: 'fact', tenant: null, author: null, hlc: `${ref}`, body }, new Set())
}

function indexOf(vs: readonly Version[]): LexicalIndex {
  const index = new LexicalIndex()
  for (const v of vs) index.add(v.ref, v.terms)
  return index
}

const filler = [
  'The quarterly report is due on Friday afternoon.',
  'Remember to water the tomato plants on the balcony.',
  'The dentist appointment moved to next Tuesday at nine.',
  'Our team standup now starts fifteen minutes later.',
  'The library closes early during the winter holidays.',
  'Grandma sent a recipe for lemon cake with poppy seeds.',
  'The car needs new tyres before the long drive north.',
  'A package from the bookshop arrived this morning.',
]

describe('budget contract (GMP §4.2)', () => {
  test('never exceeds the budget, never cuts a memory, and stops at the first that does not fit', async () => {
    const mem = await memoryOn()
    const written = new Map<string, string>()
    for (let i = 0; i < 40; i++) {
      const content = `${filler[i % filler.length]} Note ${i} about the garden ${'and the weather '.repeat(i % 7)}`.trim()
      written.set(await mem.facts.write(content), content)
    }
    // The whole order: a budget that fits everything returns every memory, ranked.
    for (const query of ['garden weather', 'tomato plants', 'note 7', 'the', 'zebra']) {
      const all = await mem.facts.retrieve(query, { budgetTokens: 1_000_000 })
      expect(all).toHaveLength(40)
      for (const budget of [0, 30, 80, 150, 333, 700, 1500]) {
        const got = await mem.facts.retrieve(query, { budgetTokens: budget })
        const used = got.reduce((n, m) => n + [...m.content].length, 0)
        expect(used).toBeLessThanOrEqual(budget)
        for (const m of got) expect(m.content).toBe(written.get(m.ref)) // whole, uncut
        // A prefix of the full order, and the next one in that order is the one that did not fit.
        expect(got.map((m) => m.ref)).toEqual(all.slice(0, got.length).map((m) => m.ref))
        const next = all[got.length]
        if (next) expect(used + [...next.content].length).toBeGreaterThan(budget)
      }
    }
    await mem.close()
  })

  test('pack() stops at the first memory that does not fit, even if a later one would', () => {
    const a = version('a', 'x'.repeat(50)), b = version('b', 'y'.repeat(100)), c = version('c', 'z'.repeat(10))
    expect(pack([a, b, c], 120, null).map((v) => v.ref)).toEqual(['a'])
    expect(pack([a, b, c], 155, null).map((v) => v.ref)).toEqual(['a', 'b'])
    expect(pack([a, b, c], 160, null).map((v) => v.ref)).toEqual(['a', 'b', 'c'])
    expect(pack([a, b, c], 160, 1).map((v) => v.ref)).toEqual(['a'])
    expect(pack([b, a, c], 99, null)).toEqual([])
  })

  test('costs are code points, as GMP counts characters', async () => {
    const mem = await memoryOn()
    await mem.facts.write('emoji 🎉🎉 party')
    expect(await mem.facts.retrieve('party', { budgetTokens: 14 })).toHaveLength(1)
    expect(await mem.facts.retrieve('party', { budgetTokens: 13 })).toHaveLength(0)
    await mem.close()
  })
})

describe('determinism (GMP §4.3)', () => {
  test('the same call twice gives the same set in the same order', async () => {
    const mem = await memoryOn()
    for (let i = 0; i < 30; i++) await mem.facts.write(`${filler[i % filler.length]} item ${i % 5}`)
    for (const q of ['item 3 report', 'plants', 'the']) {
      const one = await mem.facts.retrieve(q, { budgetTokens: 600 })
      const two = await mem.facts.retrieve(q, { budgetTokens: 600 })
      expect(two.map((m) => m.ref)).toEqual(one.map((m) => m.ref))
    }
    await mem.close()
  })

  test('two stores built with the same writes in the same order answer identically', async () => {
    // Not across write orders: ties fall to recency, and episode context follows write order.
    // Refs differ between stores (each has its own replica id), so compare what was returned.
    const answers: string[][] = []
    for (let s = 0; s < 2; s++) {
      const mem = await memoryOn()
      for (let i = 0; i < 30; i++) await mem.facts.write(`${filler[i % filler.length]} item ${i % 5}`)
      answers.push((await mem.facts.retrieve('item 3 report plants', { budgetTokens: 800 })).map((m) => `${m.writtenAt} ${m.content}`))
      await mem.close()
    }
    expect(answers[1]).toEqual(answers[0])
  })

  test('rank() is a total order over every candidate, and re-iterable', () => {
    const vs = Array.from({ length: 50 }, (_, i) => version(`r${String(i).padStart(2, '0')}`, `${filler[i % 8]} ${i % 3 ? 'lemon' : ''}`, { writtenAt: 1e15 + (i % 10) }))
    const ranked = rank('lemon cake', vs, { lexical: indexOf(vs) })
    const first = [...ranked].map((v) => v.ref)
    expect(new Set(first).size).toBe(50)
    expect([...ranked].map((v) => v.ref)).toEqual(first)
    const shuffled = [...vs].reverse()
    expect([...rank('lemon cake', shuffled, { lexical: indexOf(shuffled) })].map((v) => v.ref)).toEqual(first)
  })
})

describe('matching', () => {
  test('stemming: "run" finds "running"', async () => {
    const mem = await memoryOn()
    for (const f of filler) await mem.facts.write(f)
    await mem.facts.write('I have been running by the river every morning.')
    for (const f of filler) await mem.facts.write(`${f} Again.`)
    const [top] = await mem.facts.retrieve('run', { budgetTokens: 60 })
    expect(top?.content).toBe('I have been running by the river every morning.')
    await mem.close()
  })

  test('irregular forms and number words: "buy" finds "bought", "7 years" finds "seven years"', async () => {
    const mem = await memoryOn()
    for (const f of filler) await mem.facts.write(f, { validFrom: day(0) })
    await mem.facts.write('Yesterday she bought a violin.', { validFrom: day(10) })
    await mem.facts.write('They have been married for seven years.', { validFrom: day(20) })
    for (const f of filler) await mem.facts.write(`${f} Again.`, { validFrom: day(30) })
    expect((await mem.facts.retrieve('What did she buy?', { budgetTokens: 40 }))[0]?.content).toBe('Yesterday she bought a violin.')
    expect((await mem.facts.retrieve('married 7 years', { budgetTokens: 45 }))[0]?.content).toBe('They have been married for seven years.')
    await mem.close()
  })

  test('stop words alone do not match: the order is the prior (importance, recency)', async () => {
    const mem = await memoryOn()
    await mem.facts.write('The cat sat on the mat and it was the best.', { validFrom: day(0) })
    await mem.facts.write('Dogs bark loudly.', { validFrom: day(5) })
    const prior = (await mem.facts.retrieve('zebra', { budgetTokens: 1000 })).map((m) => m.content)
    expect(prior).toEqual(['Dogs bark loudly.', 'The cat sat on the mat and it was the best.'])
    for (const q of ['the', 'the and it was on', 'What was it?']) {
      expect((await mem.facts.retrieve(q, { budgetTokens: 1000 })).map((m) => m.content)).toEqual(prior)
    }
    await mem.close()
  })

  test('episode context: the memory written right after a match comes next; not across episodes', async () => {
    const mem = await memoryOn()
    for (const f of filler) await mem.facts.write(f, { validFrom: day(0) })
    await mem.facts.write('Have you tried the new bakery on Elm Street?', { validFrom: day(1) })
    await mem.facts.write('Yes! Their croissants are the best in town.', { validFrom: day(1) })
    for (const f of filler) await mem.facts.write(`${f} Again.`, { validFrom: day(2) })
    await mem.facts.write('The bakery was closed on Monday.', { validFrom: day(3) })
    await mem.facts.write('Unrelated: the printer is out of toner.', { validFrom: day(9) })
    const got = (await mem.facts.retrieve('bakery', { budgetTokens: 1000 })).map((m) => m.content)
    expect(got.slice(0, 2).sort()).toEqual(['Have you tried the new bakery on Elm Street?', 'The bakery was closed on Monday.'].sort())
    expect(got[2]).toBe('Yes! Their croissants are the best in town.')
    // The neighbour valid days later is another episode: it gets nothing from "The bakery was closed".
    expect(got.indexOf('Unrelated: the printer is out of toner.')).toBeGreaterThan(2)
    await mem.close()
  })
})

describe('tie-break: importance, then recency, then ref', () => {
  test('equal relevance: higher importance first, then the more recent write', async () => {
    const mem = await memoryOn()
    // Valid days apart, so no episode context flows between them: their relevance is equal.
    await mem.facts.write('blue widget', { validFrom: day(0), metadata: { importance: 0.2 } })
    await mem.facts.write('blue widget', { validFrom: day(2), metadata: { importance: 0.9 } })
    await mem.facts.write('blue widget', { validFrom: day(4), metadata: { importance: 0.5 } })
    await mem.facts.write('blue widget', { validFrom: day(6) })
    await mem.facts.write('blue widget', { validFrom: day(8) })
    const got = await mem.facts.retrieve('blue widget', { budgetTokens: 1000 })
    expect(got.map((m) => [m.metadata['importance'] ?? 0, m.validFrom?.slice(0, 10)])).toEqual([
      [0.9, '2024-01-03'],
      [0.5, '2024-01-05'],
      [0.2, '2024-01-01'],
      [0, '2024-01-09'], // the later write first
      [0, '2024-01-07'],
    ])
    await mem.close()
  })

  test('equal relevance, importance and write time: ascending ref', () => {
    const vs = ['c3', 'a1', 'b2'].map((ref, i) => version(ref, 'blue widget', { writtenAt: 5e15, validFrom: i * 1e12 }))
    expect([...rank('blue widget', vs, { lexical: indexOf(vs) })].map((v) => v.ref)).toEqual(['a1', 'b2', 'c3'])
    expect([...rank('', vs, { lexical: indexOf(vs) })].map((v) => v.ref)).toEqual(['a1', 'b2', 'c3'])
  })

  test('importance never beats relevance', async () => {
    const mem = await memoryOn()
    await mem.facts.write('red gadget', { validFrom: day(0), metadata: { importance: 100 } })
    await mem.facts.write('blue widget', { validFrom: day(5) })
    expect((await mem.facts.retrieve('blue widget', { budgetTokens: 1000 }))[0]?.content).toBe('blue widget')
    await mem.close()
  })
})

describe('lexical index', () => {
  /** Plain BM25 over the documents, as a reference. */
  function reference(docs: Map<string, string[]>, query: string[], k1 = 1.2, b = 0.75): Map<string, number> {
    const n = docs.size
    const avgdl = [...docs.values()].reduce((s, d) => s + d.length, 0) / n
    const out = new Map<string, number>()
    for (const t of new Set(query)) {
      const df = [...docs.values()].filter((d) => d.includes(t)).length
      if (df === 0) continue
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5))
      for (const [ref, d] of docs) {
        const tf = d.filter((x) => x === t).length
        if (tf > 0) out.set(ref, (out.get(ref) ?? 0) + (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * d.length) / avgdl)))
      }
    }
    return out
  }

  test.each([50, 6000])('scores as plain BM25 after adds, removes and slot reuse (%i documents)', (size) => {
    const docs = new Map<string, string[]>()
    const index = new LexicalIndex()
    for (let i = 0; i < size; i++) {
      const d = [`w${i % 7}`, `w${i % 3}`, 'common', ...(i % 5 === 0 ? ['rare', `w${i % 7}`] : [])]
      docs.set(`d${i}`, d)
      index.add(`d${i}`, d)
    }
    for (let i = 0; i < size; i += 4) {
      index.remove(`d${i}`, docs.get(`d${i}`)!)
      docs.delete(`d${i}`)
    }
    for (let i = 0; i < size / 10; i++) {
      const d = ['rare', 'common', `w${i % 4}`]
      docs.set(`n${i}`, d)
      index.add(`n${i}`, d)
    }
    expect(index.size).toBe(docs.size)
    for (const q of [['common'], ['rare', 'w3'], ['w1', 'w2', 'absent']]) {
      const want = reference(docs, q)
      const got = index.score(new Map(q.map((t) => [t, 1])))
      expect(got.size).toBe(want.size)
      for (const [ref, s] of want) expect(got.get(ref)).toBeCloseTo(s, 9)
      expect(got.get('d0')).toBeUndefined() // removed
    }
  })
})

describe('tokenizer', () => {
  test('stems, folds accents and case, drops stop words, splits and joins hyphenated words', () => {
    expect(terms('The Cafés were RUNNING')).toEqual(['cafe', 'run'])
    expect(terms('de-stress')).toEqual(['de', 'stress', 'destress'])
    expect(terms('her 18th birthday in the 1990s')).toEqual(['18', 'birthdai', '1990'])
  })
})

const locomo = resolve(SHARED_DIR, 'data', 'locomo', 'conv-26.json')

test('the eval summary puts each conversation beside the others, dev and holdout labelled, per budget and system', () => {
  const result = (conversation: string, ours: number, bm25: number): EvalResult => ({
    conversation, budgets: [1000, 2000], counts: { all: 10 }, withoutEvidence: 0, unknownEvidence: [], turns: 5, captions: false,
    recall: { memweave: { 1000: { all: ours }, 2000: { all: ours + 0.1 } }, baseline: { 1000: { all: bm25 }, 2000: { all: bm25 + 0.1 } } },
  })
  const lines = formatSummary([result('conv-26', 0.5, 0.25), result('conv-41', 0.75, 0.125)]).split('\n')
  expect(lines[0]).toMatch(/conv-26 \(dev\) n=10 .*conv-41 \(holdout\) n=10/)
  expect(lines.slice(2).map((l) => l.split('|').map((c) => c.trim()).filter(Boolean))).toEqual([
    ['1,000', 'baseline', '0.250', '0.125'],
    ['1,000', 'memweave', '0.500', '0.750'],
    ['2,000', 'baseline', '0.350', '0.225'],
    ['2,000', 'memweave', '0.600', '0.850'],
  ])
})

describe.skipIf(!existsSync(locomo))('LoCoMo dev conversations (../shared/data/locomo)', () => {
  for (const conversation of DEV_CONVERSATIONS) {
    test(`${conversation}: memweave recalls more evidence than textbook BM25 at 2,000 characters`, async () => {
      const r = await runEval({ sharedDir: SHARED_DIR, budgets: [2000], conversation })
      const ours = r.recall['memweave']![2000]!['all']!
      const baseline = r.recall['baseline']![2000]!['all']!
      expect(r.conversation).toBe(conversation)
      expect(r.counts['all']).toBeGreaterThan(0)
      expect(ours).toBeGreaterThan(baseline)
    }, 120_000)
  }
})

describe('embedder blend (reciprocal-rank fusion with the lexical order)', () => {
  // A fake embedder: one dimension per concept; a text has a concept when it holds one of its words.
  const concepts = [['pet', 'cat', 'dog', 'kitten'], ['church', 'religious', 'faith'], ['guitar', 'music', 'concert'], ['bakery', 'croissant']]
  const vector = (text: string): Float32Array =>
    Float32Array.from(concepts.map((c) => (c.some((w) => text.toLowerCase().includes(w)) ? 1 : 0)))
  const texts = [
    'We adopted a kitten named Bailey last spring.',
    'The window was made for a local church.',
    ...filler,
    'She played guitar at the concert downtown.',
    'What are the names of your pets?',
  ]
  const vs = texts.map((t, i) => version(`m${String(i).padStart(2, '0')}`, t, { writtenAt: 1e15 + i * 7_200_000_000 }))
  const vectors = new Map(vs.map((v) => [v.ref, vector(v.body.content)]))

  test('a memory that shares no word with the query is ranked through its vector; without vectors it is in the tail', () => {
    const q = 'Is Caroline religious?'
    const lexicalOnly = [...rank(q, vs, { lexical: indexOf(vs) })].map((v) => v.body.content)
    const blended = [...rank(q, vs, { lexical: indexOf(vs), queryVector: vector(q), vectors })].map((v) => v.body.content)
    // No word of the question is in any memory: lexically every memory is in the prior order (latest first).
    expect(lexicalOnly[0]).toBe('What are the names of your pets?')
    expect(blended[0]).toBe('The window was made for a local church.')
    // Within a budget that holds one memory, only the blend returns the answer.
    expect(pack(rank(q, vs, { lexical: indexOf(vs), queryVector: vector(q), vectors }), 60, null).map((v) => v.body.content))
      .toEqual(['The window was made for a local church.'])
    expect(pack(rank(q, vs, { lexical: indexOf(vs) }), 60, null).map((v) => v.body.content)).not.toContain('The window was made for a local church.')
  })

  test('matched by words and vector first, by vector alone next, by neither after', () => {
    const q = 'Bailey the kitten'
    const got = [...rank(q, vs, { lexical: indexOf(vs), queryVector: vector(q), vectors })].map((v) => v.body.content)
    expect(got.slice(0, 2)).toEqual(['We adopted a kitten named Bailey last spring.', 'What are the names of your pets?'])
    expect(got.indexOf('The quarterly report is due on Friday afternoon.')).toBeGreaterThan(1)
  })

  test('the blend is a total order, the same for any order of the candidates (GMP §4.3)', () => {
    const q = 'music for the pets'
    const one = [...rank(q, vs, { lexical: indexOf(vs), queryVector: vector(q), vectors })].map((v) => v.ref)
    expect(new Set(one).size).toBe(vs.length)
    const reversed = [...vs].reverse()
    expect([...rank(q, reversed, { lexical: indexOf(reversed), queryVector: vector(q), vectors })].map((v) => v.ref)).toEqual(one)
  })

  test('through the store: each fact is embedded once, the query once per retrieve, and the answer repeats', async () => {
    let calls = 0, embedded = 0
    const embedder = {
      id: 'fake-concepts-v1',
      async embed(batch: readonly string[]): Promise<Float32Array[]> {
        calls++
        embedded += batch.length
        return batch.map(vector)
      },
    }
    let tick = Date.UTC(2025, 0, 1)
    const mem = await createMemory({ storage: 'memory', now: () => tick++, facts: { embedder } })
    for (const t of texts) await mem.facts.write(t)
    const afterWrites = embedded
    expect(afterWrites).toBe(texts.length)
    const first = await mem.facts.retrieve('Is Caroline religious?', { budgetTokens: 60 })
    expect(first.map((m) => m.content)).toEqual(['The window was made for a local church.'])
    expect(embedded).toBe(afterWrites + 1)
    const again = await mem.facts.retrieve('Is Caroline religious?', { budgetTokens: 60 })
    expect(again.map((m) => m.ref)).toEqual(first.map((m) => m.ref))
    expect(calls).toBeGreaterThan(0)
    await mem.close()
  })
})
