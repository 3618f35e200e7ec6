import type { Reading } from '../read/reading.js'
import { alternatives, POSSESSIVE_WORDS } from '../words/determiners.js'

// Which question a name answers, read from the words around it (issue 27, session 10, names27).
// Two names contradict only when they fill one slot of one thing, as the same kind of thing:
// "works as an interpreter in Montreal" / "will be in Oaxaca" are a home and a trip, "a Skoda"
// / "a ferry named Fjordfalk" a product and a title, "sang \"... Sparrow\"" / "grandson Tyrell"
// a title and a person. A name whose shape says nothing keeps its old reading (null).

type Entity = Reading['entities'][number]

/** What a name is, when the words around it say so. */
export type NameKind = 'person' | 'place' | 'product' | 'title' | 'organization'
/** Where a place is to its subject: a stay that ends ("will be in") or where it lives or works. */
export type NameSlot = 'trip' | 'home'

const TITLED = /\b(?:called|named|titled|dubbed)\s+(?:the\s+)?$/i
// A relative, a companion or the one spoken to is a person: "grandson Tyrell", "lives with Dariusz".
const PERSON = /\b(?:with|married\s+to|engaged\s+to|(?:read|reads|reading|talk|talks|talked|talking|speak|speaks|spoke|wrote|write|writes|sent|send|sends|gave|give|gives|told|tell|tells|said|say|says|reports|reported|report|sang|sing|sings|introduced)\s+to|meet|met|wife|husband|son|daughter|grandson|granddaughter|grandma|grandpa|brother|sister|mother|father|mom|mum|dad|aunt|uncle|cousin|niece|nephew|friend|boyfriend|girlfriend|partner|fianc[eé]e?|boss|manager|colleague|coworker|baby)\s+$/i
const PRODUCT = new RegExp(String.raw`\b(?:a|an|(?:drives?|drove|driving|owns?|owned|bought|buys?|buying)(?:\s+(?:${alternatives(['the', ...POSSESSIVE_WORDS])}))?)\s+$`, 'i')
const ORGANIZATION = /\b(?:(?:works?|worked|working|job)\s+(?:for|at)|(?:employed|hired|acquired)\s+by|joined)\s+$/i
const PLACE = /\b(?:in|from|near|into|around|(?:moved?|moving|flying|fly|flew|flies|go|goes|going|went|come|coming|came|trip|travel\w*|driving|drove|heading|head|relocat\w*|back)\s+to|visit\w*)\s+(?:the\s+)?$/i
const TRIP_BEFORE = /\b(?:(?:will|'ll|going\s+to|gonna)\s+be\s+(?:in|at)|visit\w*(?:\s+\w+){0,2}\s+(?:in|at)|visit\w*|trip\s+to|(?:flying|fly|flies|flew)\s+(?:in)?to|travel\w*\s+to|head(?:ing)?\s+to|com(?:e|ing)\s+to|(?:holiday|vacation\w*)\s+in)\s+(?:the\s+)?$/i
const TRIP_AFTER = /^\s+(?:for\s+(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|several|\d+)\s+(?:days?|weeks?|nights?|weekend)|(?:this|next)\s+(?:week|weekend|month))\b/i
// A job said with its town is where one lives or works: "is a chef in Marseille".
const HOME = /(?:\b(?:lives?|living|lived|based|grew\s+up|works?|working|worked|teach\w*|stud(?:y|ies|ying|ied)|born|resides?|settled|home)\b[^.;!?,]*\b(?:in|at|near)|\b(?:is|are|am|was|were)\s+an?\s+\w+(?:\s+\w+)?\s+(?:in|at)|\b(?:is|are|am|was|were|comes?|came|originally)\s+from)\s+(?:the\s+)?$/i

/** The words of a name's clause before it, up to 60 characters. */
function before(r: Reading, e: Entity): string {
  const s = r.norm.slice(Math.max(0, e.start - 60), e.start)
  return s.slice(Math.max(...['.', '!', '?', ';'].map((p) => s.lastIndexOf(p))) + 1)
}

/** Inside double quotes: a title ("sang \"His Eye Is on the Sparrow\""). The reader folds curly quotes to straight ones. */
function quoted(r: Reading, e: Entity): boolean {
  return (r.norm.slice(0, e.start).match(/"/g)?.length ?? 0) % 2 === 1
}

/**
 * The kind of thing a name is, from its shape: a title in quotes or after "named"; a person after a
 * relative, "with" or "married to", or opening its clause before a verb ("Wendell is the only
 * one"), or the second of two names whose first the other text names ("Nora Eileen" / "meet
 * Nora"); a product after "a" or "drives"; an employer after "works for"; a place after "in",
 * "from" or a verb of going "to". Null when nothing says.
 */
export function nameKind(r: Reading, e: Entity, other: Reading): NameKind | null {
  const pre = before(r, e)
  if (quoted(r, e) || TITLED.test(pre)) return 'title'
  if (PERSON.test(pre) || e.guessed) return 'person'
  const name = /(\p{Lu}\p{Ll}+)\s+$/u.exec(pre)?.[1]?.toLowerCase()
  if (name && other.tokens.some((t) => t.lower === name)) return 'person'
  if (ORGANIZATION.test(pre)) return 'organization'
  if (PRODUCT.test(pre)) return 'product'
  if (PLACE.test(pre) && !/^'s\b/.test(r.norm.slice(e.start + e.text.length))) return 'place'
  return null
}

/** A place visited ("will be in", "flying to", "for ten days") or lived and worked in ("lives in", "works ... in"). */
export function nameSlot(r: Reading, e: Entity): NameSlot | null {
  const pre = before(r, e)
  if (TRIP_BEFORE.test(pre) || TRIP_AFTER.test(r.norm.slice(e.start + e.text.length))) return 'trip'
  return HOME.test(pre) ? 'home' : null
}

/**
 * Two names said in two roles, each known from its shape: two answers to two questions. Also a
 * class member that is given its own name on either side (an individual, not a choice of its class).
 */
export function twoRoles(a: Reading, x: Entity, b: Reading, y: Entity): boolean {
  // "a ferry named Fjordfalk" is one ship, not the way someone travels: a member given its own name
  // is an individual, no answer against another member of its class ("her electric car").
  const individual = (r: Reading, e: Entity): boolean => !/^\p{Lu}/u.test(e.text) && /^\s+(?:named|called)\s+(?:the\s+)?\p{Lu}/u.test(r.norm.slice(e.start + e.text.length))
  if (individual(a, x) || individual(b, y)) return true
  const [sa, sb] = [nameSlot(a, x), nameSlot(b, y)]
  if (sa && sb && sa !== sb) return true
  // Kinds are read from the shape around a written name; a lower-case class member ("ferry") has none.
  const kind = (r: Reading, e: Entity, o: Reading): NameKind | null => (/^\p{Lu}/u.test(e.text) ? nameKind(r, e, o) : null)
  const [ka, kb] = [kind(a, x, b), kind(b, y, a)]
  return !!ka && !!kb && ka !== kb
}
