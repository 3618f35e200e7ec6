/**
 * Labels that say which item a text is about: "Ticket 123", "Step 2", "Chapter 4", "Note number 7",
 * "Room 4B", "Plan B", "Part II", "v2", "Q1", "INV-0042", "db-01", "the second slide". Two texts
 * whose subjects carry one kind of label with different labels are about two items ("Ticket 123 is
 * open" / "Ticket 456 is closed"), whatever else differs: a different label is not a different
 * value.
 *
 * Only the subject's label counts: the label at the start of a sentence, before its verb. A label
 * after the verb is a value ("the standup moved to room 4C" / "the standup is in room 4B" clash).
 */
import { alternatives, DETERMINER_WORDS, QUANTIFIED_DETERMINERS } from '../words/determiners.js'
import { MONTH_PATTERN } from '../words/months.js'
import { WEEKDAY_NAMES } from '../words/weekdays.js'

/** One label: the kind of item (stem of its noun, or an identifier's shape) and the label itself. */
export interface ItemLabel {
  readonly head: string
  readonly label: string
  readonly text: string
}

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth', 'last', 'next', 'final']
const ORDINAL = `(?:${ORDINALS.join('|')}|\\d+(?:st|nd|rd|th))`
// A word that cannot be the noun a label follows: verbs, prepositions and determiners ("is 5",
// "at 3", "for 2"), units and amounts ("5 km", "$5"), which the value readers own.
const NOT_A_NOUN = new RegExp(String.raw`^(?:is|are|was|were|be|been|am|at|on|in|by|for|to|of|from|with|about|after|before|until|till|since|than|and|or|${alternatives(QUANTIFIED_DETERMINERS)}|per|x|times|up|down|over|under|around|approx|approximately|about|only|just|now|then|costs?|takes?|has|have|had|got|gets|needs?|uses?|runs?|weighs?|lasts?|holds?|seats?|fits?|sleeps|serves|ends?|starts?|opens?|closes?|due|leaves?|departs?|arrives?|lands?|top|page|pages|minute|minutes|hour|hours|day|days|week|weeks|month|months|year|years|am|pm)$`, 'i')
// Periods are labels too when they open a text ("Day 2: rest", "Week 3 covers ..."); after a verb
// they are durations or dates, which the value readers own.
const PERIODS = /^(?:day|week|month|year|page)$/i

// "May 5", "Friday 3" are dates, which the value readers own. Whole names only: "Decision 3",
// "Juniper 2" are labels.
const CALENDAR = new RegExp(String.raw`^(?:${MONTH_PATTERN})$|^(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|${WEEKDAY_NAMES.join('|')})s?$`, 'i')
// "I" after a name is the pronoun ("Sarah I think ..."); after these it is a numeral ("Part I").
const ROMAN_HEADS = /^(?:part|chapter|volume|vol|book|act|phase|stage|level|season|type|class|grade|tier|section|appendix|world war)$/i

const LABEL = '(?:[A-Z]?\\d+(?:[.-]\\d+)*[A-Za-z]?|[A-Z]|[IVX]{1,5})'
// "<noun> [number|no.|#] <label>" at a sentence's start, after an optional determiner.
const NOUN_LABEL = new RegExp(`^(?:(?:${alternatives(DETERMINER_WORDS)})\\s+)?(?:[A-Za-z][\\w-]*\\s+)?([A-Za-z][\\w-]*)\\s+(?:number\\s+|no\\.?\\s*|nr\\.?\\s*|#\\s*)?#?(${LABEL})(?=[\\s:,.)!-]|$)`)
// An identifier that opens a sentence: letters and digits in one token ("INV-0042", "db-01",
// "JIRA-311", "v2", "Q1", "web-7", "12A").
const IDENT = /^(?:(?:the|our|my|a|an|this|that)\s+)?(?:[A-Za-z][\w-]*\s+)?#?([A-Za-z]+[-_]?\d[\w.-]*|\d+[A-Za-z]+)(?=[\s:,.)!]|$)/
// "the second slide", "3rd floor", "first: coffee".
const ORDINAL_HEAD = new RegExp(`^(?:(?:${alternatives(DETERMINER_WORDS)})\\s+)?(${ORDINAL})\\s+([a-z][\\w-]*)`, 'i')
const ORDINAL_ITEM = new RegExp(`(?:^|,\\s*)(${ORDINAL})\\s*:`, 'i')

const shape = (id: string): string => id.toLowerCase().replace(/\d+/g, '9').replace(/[a-z]+/g, 'a')

/** The labels of the subjects of a text's sentences (see the file comment). */
export function itemLabels(sentences: readonly string[]): ItemLabel[] {
  const out: ItemLabel[] = []
  for (const s of sentences) {
    const n = NOUN_LABEL.exec(s)
    if (n && (!NOT_A_NOUN.test(n[1]!) || PERIODS.test(n[1]!)) && !/^\d/.test(n[1]!) && !CALENDAR.test(n[1]!) && (n[2] !== 'I' || ROMAN_HEADS.test(n[1]!))) {
      out.push({ head: n[1]!.toLowerCase().replace(/s$/, ''), label: n[2]!.toLowerCase(), text: n[0].trim() })
      continue
    }
    const id = IDENT.exec(s)
    if (id) {
      out.push({ head: `#${shape(id[1]!)}`, label: id[1]!.toLowerCase(), text: id[0].trim() })
      continue
    }
    const o = ORDINAL_HEAD.exec(s)
    if (o) {
      out.push({ head: o[2]!.toLowerCase().replace(/s$/, ''), label: o[1]!.toLowerCase(), text: o[0].trim() })
      continue
    }
    const it = ORDINAL_ITEM.exec(s)
    if (it) out.push({ head: 'item', label: it[1]!.toLowerCase(), text: it[0].replace(/^,\s*/, '').trim() })
  }
  return out
}

/**
 * Two labels of one kind that differ, one from each text: the texts are about two items. Null when
 * the texts share a label of that kind too (then they speak of one item among others).
 */
export function differentItems(a: readonly ItemLabel[], b: readonly ItemLabel[]): [ItemLabel, ItemLabel] | null {
  for (const x of a) {
    const ys = b.filter((y) => y.head === x.head)
    if (ys.length === 0 || ys.some((y) => y.label === x.label)) continue
    if (a.some((z) => z.head === x.head && ys.some((y) => y.label === z.label))) continue
    return [x, ys[0]!]
  }
  return null
}

/**
 * The noun a number or code written at `at` labels, when it labels one ("order 3320", "aisle 12",
 * "MySQL 8", "ticket #518"): then it says which item, not how much. Null for amounts, times,
 * dates and numbers after a verb or preposition ("costs 8", "at 8", "8 boxes").
 */
export function labelHeadAt(norm: string, at: number): string | null {
  if (at < 0 || /^[$€£¥]/.test(norm.slice(at))) return null
  const m = /([A-Za-z][\w-]*)\s*(?:number\s+|no\.?\s*|nr\.?\s*)?#?\s*$/.exec(norm.slice(Math.max(0, at - 30), at))
  if (!m) return null
  const word = m[1]!
  // A verb form before a number ("passed 7–2", "processed 40") makes it an amount.
  if (NOT_A_NOUN.test(word) || CALENDAR.test(word) || /^\d/.test(word) || /[a-z]{2}ed$/.test(word)) return null
  return word.toLowerCase().replace(/s$/, '')
}
