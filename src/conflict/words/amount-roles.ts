import { alternatives, DETERMINER_WORDS } from './determiners.js'

// What an amount is of, said right after it (issue 27, second round): "offered 420,000 for the
// business" (what it buys) and "offered 100,000 from the store sale" (where it comes from) are two
// amounts of two things, not two answers to one price.

/** The role a preposition right after an amount gives it, and the noun phrase it opens. */
export const AMOUNT_ROLE: RegExp = new RegExp(String.raw`^\s*(?:dollars?|euros?|pounds?|bucks|usd|eur|gbp)?\s*\b(for|from|toward|towards)\s+((?:(?:${alternatives(DETERMINER_WORDS)})\s+)?[\p{L}'’-]+(?:\s+[\p{L}'’-]+)?)`, 'iu')

/** Prepositions of one role: what an amount pays for, or where it comes from. */
export const ROLE_OF: Readonly<Record<string, 'for' | 'from'>> = { for: 'for', toward: 'for', towards: 'for', from: 'from' }

// The part an amount plays in one sum (issue 27, session 13, rule 33): read from the words right
// before it (`before`, matched at the end of its clause) and right after it (`after`, matched at the
// start). "paid a £2,000 deposit" / "paid the remaining £5,900" / "costs £7,900" are three amounts
// of one engine; "£1,320 for the first half" / "refund £440" / "£2,640 a year" three of one mooring.
/** An amount's role in its sum, and the words that give it. Tried in this order. */
export const SUM_ROLES: readonly { readonly role: string; readonly before?: RegExp; readonly after?: RegExp }[] = [
  { role: 'deposit', before: /\bdeposit\s+of\s+$/i, after: /^\s*(?:[\p{L}-]+\s+)?deposit\b/iu },
  { role: 'remainder', before: /\b(?:remaining|outstanding|rest|remainder|balance)(?:\s+of)?(?:\s+the)?\s*[:,]?\s*$/i, after: /^\s*(?:remaining|outstanding|left\s+to\s+pay|still\s+owed|still\s+due)\b/i },
  { role: 'part', before: /\b(?:half|halves|instal(?:l)?ments?|share)\s+(?:of\s+)?$/i, after: /^\s*(?:for|of)\s+(?:(?:the|his|her|their|my|our|its)\s+)?(?:(?:first|second|third|last|other|final)\s+)?(?:half|quarter|third|instal(?:l)?ment|part|share)\b|^\s*of\s+(?:the|his|her|their|my|our|its)\s+[$€£]/i },
  { role: 'refund', before: /\brefund(?:ed|s|ing)?\b(?:\s+(?:the\s+)?[\p{L}-]+)?\s+$/iu, after: /^\s*(?:back|refund(?:ed)?)\b/i },
  { role: 'saved', before: /\bsaved\s+(?:up\s+)?$/i, after: /^\s*(?:saved|in\s+savings|put\s+aside|set\s+aside)\b/i },
  { role: 'extra', before: /\b(?:another|extra|additional|further)\s+$/i, after: /^\s*(?:on\s+top|extra|more|in\s+addition)\b/i },
  { role: 'total', before: /\b(?:total(?:\s+(?:of|is|was|comes\s+to))?|totall?ing|altogether)\s+$/i, after: /^\s*(?:in\s+total|in\s+all|all\s+in|altogether|all\s+told)\b/i },
]

/** A rate: an amount of each unit ("£2,640 a year", "£46 a tin", "£38 a head", "£5 each"). */
export const RATE_AFTER: RegExp = /^\s*(?:(?:a|an|per)\s+(?!\d)[\p{L}-]+|each|apiece|monthly|weekly|yearly|annually)\b/iu
export const RATE_IN: RegExp = /\b(?:(?:a|an|per)\s+(?!\d)[\p{L}-]+|each|monthly|weekly|yearly|annually)$/iu

/** A total that grows as items are added, said at one moment: "the running total is", "brings the total to", "the total is now". */
export const RUNNING_TOTAL: RegExp = /\brunning\s+total\b|\b(?:brings?|brought|takes?|took|puts?)\s+(?:the\s+|our\s+|your\s+|my\s+)?(?:[\p{L}-]+\s+)?total\s+(?:up\s+)?to\b|\btotal\s+(?:is|was|stands\s+at)\s+now\b|\btotal\s+now\s+(?:is|stands\s+at)\b/iu
