import { CLASS_OF } from './classes.js'

// What a modifier of a noun answers (issue 27, events27): its colour, its size, what it is made of,
// where on the body. Two modifiers of one noun contradict only as two answers to one such question
// ("a blue quilt" / "a red quilt"); a colour beside a purpose ("the raffle quilt"), or a body part
// beside a condition or a method ("eye surgery" / "cataract surgery"), answer two questions of one thing.
// Apart from classes.ts on purpose: a body part there would make "hurt her knee" / "hurt her ankle"
// a substitution of one class.

/** Body parts, as a modifier says where on the body ("knee surgery", "eye drops", "back pain"). */
const BODY = 'eye eyes ear ears knee knees hip hips shoulder neck hand hands foot feet wrist ankle elbow heart skin tooth teeth dental jaw spine lung lungs liver kidney brain throat chest stomach'

/** Materials beyond WordNet's fabrics ("a wooden table", "a leather bag"). */
const MATERIAL = 'wooden wood oak pine leather plastic metal steel iron glass ceramic cotton paper stone brick concrete'

const QUESTION: ReadonlyMap<string, string> = new Map([
  ...BODY.split(' ').map((w) => [w, 'body'] as const),
  ...MATERIAL.split(' ').map((w) => [w, 'material'] as const),
])

/** Classes of classes.ts whose members describe a thing (how it looks, how big, what of) rather than which kind it is. */
const DESCRIBING: ReadonlyMap<string, string> = new Map([['color', 'color'], ['size', 'size'], ['fabric', 'material']])

/** The question a modifier answers about its noun, or null when it names a kind, a purpose or an owner. */
export function modifierQuestion(word: string): string | null {
  const w = word.toLowerCase()
  return QUESTION.get(w) ?? DESCRIBING.get(CLASS_OF.get(w) ?? '') ?? null
}

// Words before a noun that say which one of several occurrences or things it is, not what kind:
// "her left cataract surgery" / "her right cataract surgery", "the morning ferry" / "the evening
// ferry", "the first session" / "the second session". One set a line; two words of one set are two things.
const WHICH_ONE_TEXT = `
left right
upper lower
front back rear
inner outer
morning afternoon evening night
first second third fourth fifth last final
`
/** Word -> the set of words that tell one occurrence of a thing from another. */
export const WHICH_ONE: ReadonlyMap<string, number> = new Map(
  WHICH_ONE_TEXT.trim().split('\n').flatMap((line, i) => line.split(' ').map((w) => [w, i] as const)),
)
