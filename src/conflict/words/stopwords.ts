import { stem } from '../read/stem.js'
import { CONTRAST } from './classes.js'
import { ADDITIVE_WORDS } from './markers.js'
import { CLAIM_NEGATORS } from './negation.js'
import { POLARITY } from './poles.js'

const STOP_TEXT =
  'a an the and or but if of to in on at by for from with into onto over under about as than then so ' +
  'is are was were be been being am do does did done doing has have had having will would shall should can could ' +
  'may might must it its this that these those there here their theirs they them he him his she her hers we us our ' +
  'ours you your yours i me my mine who whom whose which what when where why how all any some each every such ' +
  'very much many more most just only even yet already really actually currently now around ' +
  'approximately roughly nearly almost ok okay well please s t d ll m re ve got get gets getting ' +
  'use uses used using make makes made go goes going went via per built through throughout across toward towards upon'

/**
 * Function words: they carry no topic and never count as a difference. A word that carries
 * polarity, contrast or negation is never a stopword, whatever the list says.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  STOP_TEXT.split(' ').filter((w) => !CLAIM_NEGATORS.has(w) && !CONTRAST.has(w) && !ADDITIVE_WORDS.has(w) && !POLARITY.has(stem(w))),
)
