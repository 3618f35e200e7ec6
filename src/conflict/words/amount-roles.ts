import { alternatives, DETERMINER_WORDS } from './determiners.js'

// What an amount is of, said right after it (issue 27, second round): "offered 420,000 for the
// business" (what it buys) and "offered 100,000 from the store sale" (where it comes from) are two
// amounts of two things, not two answers to one price.

/** The role a preposition right after an amount gives it, and the noun phrase it opens. */
export const AMOUNT_ROLE: RegExp = new RegExp(String.raw`^\s*(?:dollars?|euros?|pounds?|bucks|usd|eur|gbp)?\s*\b(for|from|toward|towards)\s+((?:(?:${alternatives(DETERMINER_WORDS)})\s+)?[\p{L}'’-]+(?:\s+[\p{L}'’-]+)?)`, 'iu')

/** Prepositions of one role: what an amount pays for, or where it comes from. */
export const ROLE_OF: Readonly<Record<string, 'for' | 'from'>> = { for: 'for', toward: 'for', towards: 'for', from: 'from' }
