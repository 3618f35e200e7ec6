/**
 * What of a text makes a claim. A contradiction is between two claims; chat is mostly not claims:
 * greetings and thanks ("Hey Mel!", "Thanks, Jon!"), questions, reactions to the listener ("You're
 * so talented!", "That's awesome!"), and hedged talk ("I might try pottery", "if it rains we'd stay
 * in"). Those sentences are set aside before any check runs, so no value or name in them can
 * clash with anything.
 *
 * Plans and hypotheticals are kept when they are all a text says, but marked: a plan is not yet a
 * fact, so a clash with one is weaker evidence (src/conflict/confidence.ts).
 */

/** A text reduced to the sentences that make a claim. */
export interface Statement {
  /** The claim sentences, in order, joined by a space; empty when the text makes no claim. */
  readonly text: string
  /** "Name:" a chat turn opens with, when it does (taken off `text`). */
  readonly speaker: string | null
  /** Why sentences were set aside: 'greeting', 'question', 'reaction', 'hypothetical'. */
  readonly dropped: readonly string[]
  /**
   * Every kept sentence is a plan, a hypothetical, or someone's opinion of or advice to another
   * ("Gina believes stumbling blocks can be open doors", "encourages Jon not to give up"): the
   * text states no fact about the world.
   */
  readonly hedged: 'plan' | 'hypothetical' | 'opinion' | null
  /** A kept sentence speaks of the speaker or writer ("I", "my", "we"). */
  readonly firstPerson: boolean
}

// Words that open a sentence without saying anything about the world, and may be followed by the
// name of the one addressed ("Hey Mel!", "Thanks, Jon!", "Wow, Caroline,").
const INTERJECTION =
  /^(?:hey+|hi+|hello|hiya|yo|oh+|ooh+|wow+|whoa|aw+|omg|ha(?:ha)+|lol|yeah|yea|yep|yes|yup|nope|ok(?:ay)?|sure|well|um+|hmm+|thanks|thank you(?: so much)?|thx|congrats|congratulations|cheers|sorry|bye|see you|take care|good (?:morning|night|luck|evening)|no worries|you're welcome|of course|totally|absolutely|exactly|definitely|indeed|agreed|true|right|great|awesome|cool|nice|amazing|wonderful|fantastic|sweet|lovely|love it|same here|me too|gotcha|ah+|oops)\b(?:\s+(?:so much|a lot|again|too|buddy|dude|man|girl|guys|all|everyone))?[\s,!.~:;-]*/i
const VOCATIVE = /^(?:[A-Z][\w'-]*)(?:\s+[A-Z][\w'-]*)?[\s,!.]*$/
const VOCATIVE_LEAD = /^[A-Z][\w'-]*[,!]+\s*/
// A name said to the listener before what is said to them: "Melanie, that's a great pic!".
const ADDRESSED = /^[A-Z][\w'-]*[,!]+\s*(?:that|this|it|you|your|i|i'm|we|so|what|how|congrats|thanks|great|wow|glad|sorry)\b/i

// A reaction to, or an opinion about, the one addressed: it is about the listener's qualities, not
// a claim a store would hold ("You're so dedicated", "Your art is amazing", "That's so cool!").
const ABOUT_LISTENER = /^(?:you|your|you're|you've|you'll|you'd|ur|u)\b/i
const REACTION = /^(?:that|this|it|what a|how)(?:'s|\s+is|\s+was|\s+sounds|\s+looks|\s+seems|\s+must\s+(?:be|have\s+been))?\s+(?:(?:so|really|super|very|such|totally|pretty|truly|absolutely)\s+)*(?:a\s+|an\s+)?(?:(?:great|awesome|amazing|cool|nice|wonderful|fantastic|lovely|beautiful|incredible|inspiring|impressive|exciting|fun|sweet|sad|tough|hard|rough|scary|crazy|wild|huge|brave|special|interesting|touching|heartwarming|neat|good|bad|terrible|awful|unbelievable|stunning|gorgeous|perfect)\b)/i

// "would rather", "'d prefer", "would like" state a preference, not a hypothetical.
const HYPOTHETICAL = /\b(?:if|might|maybe|perhaps|hope|hoping|hopefully|wish|could|someday|one day|imagine|suppose|supposing|unless)\b|(?:\bwould(?:n't)?|'d)\b(?!\s+(?:rather|prefer|like|love|hate))/i
// "there may be a problem", "it may well have been": a hedge. Lower case and before "be" or "have
// been" only: "May" is a month, "guests may use the pool" a permission, "may not" a rule.
const MAY_HEDGE = /\bmay\s+(?:well\s+|also\s+|still\s+)?(?:be|have\s+been)\b/
const PLAN = /\b(?:plan(?:s|ning)?\s+to|plan(?:s|ning)?\s+on|going\s+to|gonna|want(?:s|ed)?\s+to|wanna|thinking\s+(?:of|about)|considering|looking\s+forward|intend(?:s|ing)?\s+to|aim(?:s|ing)?\s+to|about\s+to)\b/i
// A subject's attitude toward, or advice to, someone: the verb right after a short subject.
const OPINION = /^(?:[\w'’.-]+\s+){1,3}?(?:encourag\w*|believ\w*|suggest\w*|admir\w*|appreciat\w*|recommend\w*|remind\w*|thinks|thought|hopes|hoped|advis\w*|urg\w*|prais\w*|reassur\w*|compliment\w*|cheer\w*\s+on)\b/i
// "how do u even do that w no car": chat drops the question mark; a wh-word, an auxiliary and a
// subject pronoun still ask (store29, issue 27). Not "what I did was ...", which states.
const UNMARKED_QUESTION = /^(?:how|what|why|where|when|who|which)\s+(?:do|does|did|are|is|was|were|can|could|would|will|should|have|has)\s+(?:u|you|ya|i|we|they|he|she|it)\b/i
const FIRST_PERSON = /\b(?:i|i'm|i've|i'll|i'd|me|my|mine|myself|we|we're|we've|our|ours|us)\b/i

const HEADING = /^(?:note|notes|update|fyi|reminder|todo|to-do|status|re|ps|edit|summary|action|decision|agenda|heads up|important|warning|tip|info|item|step|q|a|question|answer|day|part|chapter|phase|option|plan|rule|policy|fact|reason|result|outcome|owner|eta|deadline|when|where|who|what|why|how)\b/i

/** Where one sentence of a text ends and the next starts: line breaks, semicolons, ends of sentences; abbreviations kept whole. */
export const SENTENCE_BREAK = /\n+|;\s+|(?<=[.!?])(?<!\b(?:Dr|Mr|Mrs|Ms|St|vs|etc|approx|e\.g|i\.e|[A-Z])\.)\s+(?=\S)/

/** Sentences of a text: ends of sentences, semicolons and line breaks; abbreviations kept whole. */
export function sentences(text: string): string[] {
  return text
    .split(SENTENCE_BREAK)
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
}

/** Reduces a text to its claims (see the file comment). */
export function readStatement(text: string): Statement {
  // Letters of any script: "Joaquín:" opens a turn as "Caroline:" does (session 12, roles32).
  const found = /^(\p{Lu}[\p{L}\p{M}\d_'.-]*(?:\s\p{Lu}[\p{L}\p{M}\d_'.-]*)?):\s+(?=\S)/u.exec(text)
  // A speaker opens a chat turn: "Caroline: I went to a support group". A heading ("Update:",
  // "Note:", "Step 2:") is not a speaker.
  const m = found && !HEADING.test(found[1]!) ? found : null
  const body = m ? text.slice(m[0].length) : text
  const dropped: string[] = []
  const kept: Array<{ text: string; hedge: Statement['hedged'] }> = []
  for (let s of sentences(body)) {
    // Interjections and the name they address go; what follows them may still be a claim.
    for (let i = 0; i < 4; i++) {
      const before = s
      s = s.replace(INTERJECTION, '')
      if (s !== before || ADDRESSED.test(s)) s = s.replace(VOCATIVE_LEAD, '')
      if (s === before) break
    }
    if (s.length === 0 || VOCATIVE.test(s) || !/[a-z]{2}/i.test(s)) {
      dropped.push('greeting')
      continue
    }
    if (/\?\s*["')\]]*\s*$/.test(s) || UNMARKED_QUESTION.test(s)) {
      dropped.push('question')
      continue
    }
    // "Super stoked!", "So proud of you!": a short exclamation says how the speaker feels, nothing more.
    if (ABOUT_LISTENER.test(s) || REACTION.test(s) || (/!\s*$/.test(s) && s.split(/\s+/).length <= 4)) {
      dropped.push('reaction')
      continue
    }
    kept.push({ text: s, hedge: HYPOTHETICAL.test(s) || MAY_HEDGE.test(s) ? 'hypothetical' : PLAN.test(s) ? 'plan' : OPINION.test(s) ? 'opinion' : null })
  }
  // Hedged sentences beside plain claims add nothing a contradiction should rest on.
  const plain = kept.filter((k) => k.hedge === null)
  const use = plain.length > 0 ? plain : kept
  if (plain.length > 0 && plain.length < kept.length) dropped.push('hypothetical')
  const hedged = use.length > 0 && plain.length === 0 ? (['plan', 'opinion', 'hypothetical'] as const).find((h) => use.some((k) => k.hedge === h))! : null
  const joined = use.map((k) => k.text).join(' ')
  const firstPerson = FIRST_PERSON.test(joined)
  const speaker = m ? m[1]! : null
  // Unchanged text when nothing was set aside, so every other reading sees what it always saw.
  // The speaker's name goes: who says a thing is not what it is about; `speaker` says who "I" is.
  const out = dropped.length === 0 && !m ? text : joined
  return { text: out, speaker, dropped, hedged, firstPerson }
}
