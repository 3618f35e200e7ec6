import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { gzipSync } from 'node:zlib'
import { build, type Plugin } from 'vite'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { closure, holdsDetector, workerFromSource } from '../../scripts/worker-chunks.js'

/**
 * What a browser app that imports `openMemory` from 'memweave' bundles (issue 14): a Vite
 * production build of a one-line page against the built `dist/src/index.js`, with the README's
 * `worker: { format: 'es' }`. A small plugin records every module of every chunk of the page and of
 * the worker; none may come from a Node-only package or folder, and the gzipped page JS and
 * facts-only worker stay under budget. The figures are printed.
 *
 * The worker is built from its source (`worker/memory-worker.ts`, which `dist/worker/` is
 * pre-bundled from with the same minifier) so that its modules keep their names; e2e/consumer.spec.ts
 * measures what a browser downloads from the packed package (its page runs the README's quick
 * start, so its page budget is larger).
 */

const BUDGET = {
  /** JavaScript the page itself loads (the client, not the worker), gzipped: 9.2 kB when set. */
  pageJsGz: 12_000,
  /**
   * The worker of a page that only uses facts, gzipped: what loads at open plus the free-text
   * conflict detector, loaded by the first read that judges a free-text fact: 83.2 kB when set (63.3 kB
   * at open), the budget e2e/consumer.spec.ts holds the downloaded worker to. Raised from 90_000 by
   * issue 16's general detector (lexicons and mechanisms: +5.5 kB gz, 89.9 kB measured). Raised from
   * 95_000 by issue 15's WebAssembly BLAKE2b (hash-wasm, +6.3 kB gz; 99.3 kB measured): it takes a
   * third off a fact write's CPU and nine tenths off the hashing of a join; then by issue 16's
   * generalization work (units, rates, ranges, stances, weekday rules, WordNet antonyms and
   * classes: src/conflict grew from 27.4 to 36.3 kB gz in an esbuild estimate). Raised from 115_000
   * by issue 27's precision rules (what is a claim, labels as items, the subject, the confidence:
   * statement.ts, labels.ts, subject.ts, confidence.ts; 117.7 kB measured), which take conv-26's
   * flags from 71 to 0.5 per 100 facts. Raised from 120_000 when issue 26's and 27's work met on
   * main (117.9 kB measured, 78.1 kB at open): stamp range checks in the record log, the one shape
   * check shared by the API and sync, the judge's hook (the judge itself loads only when set); the
   * backup code loads on first use and is not counted. Raised from 122_500 by issue 27's claim
   * frame (src/conflict/claim-frame.ts: +2.4 kB gz, 118.7 to 121.1 kB measured in one run), which
   * takes the realistic holdout's precision over 0.90 and the planted holdout's from 0.62 to 0.73.
   * Raised from 125_500 when the page<->worker surfaces (issue 30, +0.5 kB) and the split of
   * facts/store.ts and records/log.ts into files of one job each (+229 bytes of module seams)
   * landed: 125,468 bytes measured, 32 under the old budget, no room for the next change.
   * Raised from 127_000 by issue 31's third round and issue 27's seventh (128,100 bytes measured when
   * they met on main): IndexedDB transactions run native (src/storage/idb-tx.ts: a single write
   * 2.0 -> 1.4 ms), bodies read from storage in one packed shape (stored-body.ts: 620 -> 511 B of
   * heap a fact), the detector's lazy reading and one-pattern rewriter (a text read 131 -> 36 us),
   * and the owner/series/activity readings that take conv-30's text-only flags to 0.
   * Raised from 130_000 by issue 31's fourth round and issue 27's eighth (132,400 bytes measured when
   * they met on main): the optimistic write batch (one IndexedDB round trip a write: 1.3 -> 1.1 ms),
   * the open's parallel key ranges, the tail's prior order (a query matching nothing at 1M: 100 ms ->
   * 0.5 ms), the one-belief listing, and the eighth round's readings and possession check (the unseen
   * set's dev pairs 0.727 -> 1.000 precision; "has two cats" / "has no pets" found).
   * Raised from 135,000 by issue 31's fifth round and issue 27's ninth (135,610 bytes measured when
   * they met on main): a tick's fact writes joined into one batch item and the ASCII term scan (a
   * warm burst of 1,000 35 -> 23 ms CPU, the first 140 -> 65 ms), the open applying each key range
   * as it arrives, the fact view's prepared chunks, the jobs check and claim-frame factors (the
   * second unseen set's dev pairs 0.842 -> 1.000 precision). scripts/bundle-modules.ts shows where
   * the bytes are: Dexie is 30.5 kB of it (only the open and upgrade use it; kept: it is the
   * project's chosen IndexedDB layer), src/conflict 46 kB.
   * Raised from 138,000 by issue 31's sixth round and issue 27's tenth and eleventh (140,785 bytes
   * measured when they met on main): retrieve's MaxScore walk over postings in slot order (ranking
   * at 1M facts 22 -> 6-8 ms a query) and the index's O(terms) writes (+~1.3 kB), the compaction's
   * steps, and 21 detector rules from public data, new conversations and diaries (+~3.5 kB: the
   * planted realistic holdout 0.789 -> 0.811, the new conversations' observations 7.8-14.4 -> 1.6-7.6
   * flags per 100).
   * Raised from 143,000 by issue 27's twelfth round and issue 31's seventh (144,149 bytes measured
   * when they met on main): calibrated confidences and the notAKind / otherSense factors, the store's
   * diary rule, negation scope, a change planned from a date, an offer and its refusal, amount roles
   * (+~3.0 kB: the synthetic conversations' observations 1.56-7.63 -> 0.78-2.54 flags per 100, conv-41's
   * 1.85 -> 0.93 on the holdout), the first retrieve's radix sort and the commit notices (+~0.4 kB).
   * Raised from 147,000 by issue 27's session 10 (152,460 bytes measured when its two rounds met on
   * main): store-level evidence (a hub subject's counts, states and values at their dates), claim kinds,
   * retraction uses, modifier roles, name roles, capacities and window edges, one list of each kind
   * (+~8.3 kB: a fresh dev set's observations 9.36 -> 2.22 flags per 100, the blind holdout's 8.25 ->
   * 5.34, its pairs' recall 0.500 -> 0.656 at precision 1.000).
   * Raised from 155,000 by issue 27's session 11 (155,055 bytes measured in a fresh-clone CI run when
   * its rounds met on main): a thing told over time (store/recurring-slot.ts, facts/slot-tally.ts),
   * labels, measures and prepositions of texts that share no subject, final name roles, seven reading
   * rules of chat, and the expiry hold of issue 31 (+~2.6 kB: a fresh dev set's observations 9.37 ->
   * 2.53 flags per 100 while unseen, the blind holdout's 5.34 -> 4.13, conv-41's 0.62 -> 0.31).
   * Raised from 157,000 by issue 27's session 13 (161,228 bytes measured when its two rounds met on main):
   * what a value is of, a date's event, negations that reach another object, notes that share only the
   * hub subject, amounts of parts and occurrences (+~5.8 kB: an assistant's notes about its user, the class
   * the fresh sets found worst, dev7-2 27.03 -> 4.05 flags per 100; the fresh dev8's observations 5.46 ->
   * 4.20 while unseen, its planted false flags 22 -> 19; the blind holdout's 3.88 -> 3.64).
   * Raised from 163,000 by session 14 (163,765 bytes measured when its rounds met on main): issue 27's
   * rules 35-41 (a date series, two predicates, a rule's exception, a verbless reply, a forecast and its
   * outcome, a price's head past its currency sign, a size against a distance; +~2.0 kB: the fresh dev10's
   * pairs P 0.667 -> 1.000 and planted false flags 14 -> 10, dev11's observations 25 -> 22, unseen2's
   * holdout pairs P 0.696 -> 0.727) and issue 31's deferred free-text tallies after an open (+~0.4 kB:
   * cold open through openMemory at 100k 1.91x -> 1.60-1.73x).
   */
  factsWorkerGz: 165_000,
}

/** Packages an app installs only for memweave's Node side (optional peers); never in a browser bundle. */
const NODE_ONLY_PACKAGES = ['ws', '@y/websocket-server', '@modelcontextprotocol/sdk', 'zod', 'ioredis', 'ai', '@ai-sdk']
/** Our Node-only folders, and the conformance suite, which has its own entry. */
const NODE_ONLY_FOLDERS = ['relay', 'cli', 'node', 'gmp-http', 'mcp', 'conformance']

const REPO = join(import.meta.dirname, '../..')
const ENTRY = join(REPO, 'dist', 'src', 'index.js')
const kB = (n: number): string => `${(n / 1024).toFixed(1)} kB`

interface Chunk {
  readonly file: string
  readonly isEntry: boolean
  readonly imports: readonly string[]
  readonly modules: readonly string[]
  readonly gz: number
}

/** Records the chunks of one build (the page's or the worker's), with their modules and gzipped size. */
function recorder(into: Chunk[]): Plugin {
  return {
    name: 'memweave:bundle-recorder',
    generateBundle(_options, bundle) {
      for (const out of Object.values(bundle)) {
        if (out.type !== 'chunk') continue
        into.push({
          file: out.fileName, isEntry: out.isEntry, imports: out.imports, modules: out.moduleIds,
          gz: gzipSync(out.code).length,
        })
      }
    },
  }
}



const gz = (chunks: readonly Chunk[]): number => chunks.reduce((sum, c) => sum + c.gz, 0)

/** Module ids as paths from the repository (or `node_modules/<package>/...`), without Vite's query suffixes. */
function moduleNames(chunks: readonly Chunk[]): string[] {
  const names = chunks.flatMap((c) => c.modules).map((id) => id.replace(/^\0/, '').replace(/\?.*$/, ''))
  return [...new Set(names)].map((id) => (id.startsWith(REPO) ? relative(REPO, id).split('\\').join('/') : id))
}

/** Modules that must not reach a browser: Node-only packages, our Node-only folders, Node built-ins. */
function nodeOnly(names: readonly string[]): string[] {
  const pkg = new RegExp(`(^|/)node_modules/(${NODE_ONLY_PACKAGES.map((p) => p.replace('/', '\\/')).join('|')})(/|$)`)
  const folder = new RegExp(`^(dist/)?src/(${NODE_ONLY_FOLDERS.join('|')})/`)
  return names.filter((n) => pkg.test(n) || folder.test(n) || /^node:|__vite-browser-external|^(fs|path|os|crypto|net|http|child_process)$/.test(n))
}

const page: Chunk[] = []
const worker: Chunk[] = []
let dir = ''

beforeAll(async () => {
  if (!existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run "npm run build" first`)
  dir = mkdtempSync(join(tmpdir(), 'memweave-bundle-'))
  writeFileSync(join(dir, 'main.js'), `import { openMemory } from ${JSON.stringify(ENTRY)}\nwindow.memory = openMemory()\n`)
  await build({
    root: dir,
    configFile: false,
    logLevel: 'silent',
    plugins: [recorder(page)],
    worker: { format: 'es', plugins: () => [workerFromSource, recorder(worker)] },
    build: {
      outDir: join(dir, 'dist'),
      write: false,
      target: 'es2022',
      reportCompressedSize: false,
      rollupOptions: { input: join(dir, 'main.js') },
    },
  })
}, 120_000)

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

test('the build saw the page and the worker built from its source', () => {
  expect(page.some((c) => c.isEntry)).toBe(true)
  const modules = moduleNames(worker)
  expect(modules).toContain('worker/memory-worker.ts')
  expect(modules).toContain('src/facts/store.ts')
})

test('no Node-only package, folder or built-in enters the page or the worker', () => {
  expect(nodeOnly(moduleNames(page)), 'page').toEqual([])
  expect(nodeOnly(moduleNames(worker)), 'worker').toEqual([])
  // The checker itself sees what it should: the Node entry trips it.
  expect(nodeOnly(['dist/src/relay/relay.js', 'src/node/file-adapter.ts', '/x/node_modules/ws/index.js', '/x/node_modules/@modelcontextprotocol/sdk/a.js', 'node:fs'])).toHaveLength(5)
  expect(nodeOnly(['/x/node_modules/yjs/dist/yjs.mjs', 'src/sync/pool-token.ts', '/x/node_modules/aid/index.js'])).toEqual([])
})

test('gzipped sizes: the page JS and a facts-only worker stay under budget', () => {
  const pageJs = closure(page, page.filter((c) => c.isEntry))
  const entry = worker.filter((c) => c.isEntry)
  expect(entry).toHaveLength(1)
  const atOpen = closure(worker, entry)
  const detector = worker.filter((c) => holdsDetector(c.modules))
  expect(detector).toHaveLength(1)
  const factsOnly = closure(worker, [...entry, ...detector])
  console.log(
    `bundle (vite build, openMemory only, worker.format es): page JS ${kB(gz(pageJs))} gz (budget ${kB(BUDGET.pageJsGz)}); ` +
      `worker: facts at open ${kB(gz(atOpen))} gz, facts-only with the free-text detector ${kB(gz(factsOnly))} gz (budget ${kB(BUDGET.factsWorkerGz)}), ` +
      `every module ${kB(gz(worker))} gz in ${worker.length} chunks`,
  )
  expect(gz(pageJs)).toBeLessThan(BUDGET.pageJsGz)
  expect(gz(factsOnly)).toBeLessThan(BUDGET.factsWorkerGz)
  // Opening loads no other protocol module, nor the libraries only they need (src/memory-loader.ts).
  const others = /^src\/(pools|small|artifacts|working)\/|^node_modules\/(yjs|y-websocket|y-protocols|yaml|ajv|ajv-formats)\//
  expect(moduleNames(atOpen).filter((n) => others.test(n)), 'loaded at open by a facts-only worker').toEqual([])
})

test('React stays in memweave/react: no module of react, react-dom or src/react in the page or the worker of the main entry', () => {
  const react = (names: readonly string[]): string[] => names.filter((n) => /(^|\/)node_modules\/(react|react-dom|scheduler)\/|^(dist\/)?src\/react\//.test(n))
  expect(react(moduleNames(page)), 'page').toEqual([])
  expect(react(moduleNames(worker)), 'worker').toEqual([])
  // The checker itself sees what it should.
  expect(react(['/x/node_modules/react/index.js', '/x/node_modules/react-dom/client.js', 'dist/src/react/use-memory.js', 'src/react/index.ts'])).toHaveLength(4)
  expect(react(['/x/node_modules/react-native-x/a.js', 'src/facts/live-query.ts'])).toEqual([])
})

test("the worker carries Dexie's ES2018 build, not the ES5 one behind the package's import wrapper (1.7 kB gz more)", () => {
  const dexie = moduleNames(worker).filter((n) => /(^|\/)node_modules\/dexie\//.test(n))
  expect(dexie.map((n) => n.replace(/^.*node_modules\//, ''))).toEqual(['dexie/dist/modern/dexie.mjs'])
})

test('a facts-only worker does not carry the dedicated-worker fallback (its election and sync load only where a worker is elected)', () => {
  const entry = worker.filter((c) => c.isEntry)
  const factsOnly = closure(worker, [...entry, ...worker.filter((c) => holdsDetector(c.modules))])
  const fallback = /^src\/runtime\/(election|tab-sync|tab-fallback)\.ts$/
  expect(moduleNames(factsOnly).filter((n) => fallback.test(n))).toEqual([])
  // Still in the worker's build, for the workers that take part in an election.
  expect(moduleNames(worker).filter((n) => fallback.test(n)).sort()).toEqual(['src/runtime/election.ts', 'src/runtime/tab-fallback.ts', 'src/runtime/tab-sync.ts'])
})
