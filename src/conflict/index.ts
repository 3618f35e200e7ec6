// The conflict detector shared by facts and working memory (issue 16): model-free by default,
// with an NLI adapter for those who host a model. Re-exported by name from src/index.ts.
export { TextConflictDetector } from './judge/text-detector.js'
export { nliConflictJudge } from './nli.js'

export type { TextConflictVerdict } from './judge/text-detector.js'
export type { LabelScore, NliConflictJudge, NliJudgeOptions, NliVerdict, PairClassifier } from './nli.js'
