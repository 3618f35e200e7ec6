// The Embedder interface moved to core (it is shared with working memory); re-exported so existing imports keep working.
export { cosine } from '../core/embedder.js'
export type { Embedder } from '../core/embedder.js'
