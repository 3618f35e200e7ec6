/**
 * What the facts-only worker holds, module by module: `npx tsx scripts/bundle-modules.ts [top] [--all]`.
 *
 * Builds the worker the way test/package/bundle-size.test.ts does (a Vite production build of a
 * page that calls openMemory, the worker built from worker/memory-worker.ts), with source maps,
 * and gives every byte of the minified output to the source module its mapping names. The chunks
 * counted are the test's "facts-only" set: what the worker loads at open plus the free-text
 * detector's chunk (`--all`: every chunk). Each row: minified bytes, and the gzip bytes that
 * disappear when the module's bytes are taken out of its chunk (the module's marginal cost; the
 * rows do not sum exactly to the total, gzip shares its window across modules). Needs no
 * `npm run build` (dist/ is not read). `--dump <module>` prints the minified bytes of the modules whose
 * name contains that text (e.g. `--dump '(unmapped)'`), to see what a row holds.
 */
import { decode } from '@jridgewell/sourcemap-codec'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { gzipSync } from 'node:zlib'
import { build, type Plugin } from 'vite'
import { closure, holdsDetector, workerFromSource } from './worker-chunks.js'

const REPO = join(import.meta.dirname, '..')

interface Chunk {
  readonly file: string
  readonly isEntry: boolean
  readonly imports: readonly string[]
  readonly code: string
  readonly map: { sources: string[]; mappings: string } | null
  readonly moduleIds: readonly string[]
}

/** Collects the worker's chunks with their code and source map. */
function collect(into: Chunk[]): Plugin {
  return {
    name: 'memweave:bundle-modules',
    generateBundle(_options, bundle) {
      for (const out of Object.values(bundle)) {
        if (out.type !== 'chunk') continue
        into.push({ file: out.fileName, isEntry: out.isEntry, imports: out.imports, code: out.code, map: out.map as Chunk['map'], moduleIds: out.moduleIds })
      }
    },
  }
}


/** A path from the repository (`src/...`), or `<package>/<file>` for a dependency. */
function label(source: string): string {
  const path = source.split('\\').join('/').replace(/\?.*$/, '')
  const pkg = path.lastIndexOf('/node_modules/')
  if (pkg >= 0) return path.slice(pkg + '/node_modules/'.length)
  const own = path.match(/(?:^|\/)((?:src|worker)\/.*)$/)
  return own ? own[1]! : relative(REPO, path)
}

/** Byte ranges of a chunk's code owned by each source (unmapped bytes go to `(unmapped)`). */
function ranges(chunk: Chunk): Map<string, Array<[number, number]>> {
  const byModule = new Map<string, Array<[number, number]>>()
  const add = (name: string, from: number, to: number): void => {
    if (to <= from) return
    const list = byModule.get(name) ?? []
    list.push([from, to])
    byModule.set(name, list)
  }
  if (!chunk.map) {
    add('(no map)', 0, chunk.code.length)
    return byModule
  }
  const lines = chunk.code.split('\n')
  // [generated column, source index, ...] per segment, per generated line.
  const decoded = decode(chunk.map.mappings)
  let offset = 0
  let owner = '(unmapped)'
  lines.forEach((line, i) => {
    const segments = decoded[i] ?? []
    let cursor = 0
    // A line the minifier did not map at its start continues the last line's module (the text of
    // a multi-line template literal), unless it is the chunk's own: imports, exports, comments.
    if (/^(?:import\b|export\b|\/\/|\/\*|\s*\*)/.test(line)) owner = '(unmapped)'
    for (const seg of segments) {
      add(owner, offset + cursor, offset + seg[0]!)
      cursor = seg[0]!
      owner = seg.length >= 2 ? label(chunk.map!.sources[seg[1]!]!) : '(unmapped)'
    }
    add(owner, offset + cursor, offset + line.length + 1)
    offset += line.length + 1
  })
  return byModule
}


/** Node's default level, as test/package/bundle-size.test.ts measures. */
const gz = (s: string): number => gzipSync(s).length

async function main(): Promise<void> {
  const top = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 25)
  const all = process.argv.includes('--all')
  const dir = mkdtempSync(join(tmpdir(), 'memweave-modules-'))
  const worker: Chunk[] = []
  try {
    writeFileSync(join(dir, 'main.js'), `import { openMemory } from ${JSON.stringify(join(REPO, 'src', 'index.ts'))}\nwindow.memory = openMemory()\n`)
    await build({
      root: dir,
      configFile: false,
      logLevel: 'silent',
      worker: { format: 'es', plugins: () => [workerFromSource, collect(worker)], rollupOptions: { output: { sourcemap: true } } },
      build: { outDir: join(dir, 'dist'), write: false, target: 'es2022', sourcemap: true, reportCompressedSize: false, rollupOptions: { input: join(dir, 'main.js') } },
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  const entry = worker.filter((c) => c.isEntry)
  const detector = worker.filter((c) => holdsDetector(c.moduleIds))
  const chunks = all ? worker : closure(worker, [...entry, ...detector])
  const rows = new Map<string, { min: number; gz: number }>()
  let total = 0
  for (const chunk of chunks) {
    const whole = gz(chunk.code)
    total += whole
    for (const [name, spans] of ranges(chunk)) {
      let without = ''
      let last = 0
      let min = 0
      for (const [from, to] of spans) {
        without += chunk.code.slice(last, from)
        last = to
        min += to - from
      }
      without += chunk.code.slice(last)
      const row = rows.get(name) ?? { min: 0, gz: 0 }
      row.min += min
      row.gz += whole - gz(without)
      rows.set(name, row)
    }
  }
  const dump = process.argv[process.argv.indexOf('--dump') + 1]
  if (process.argv.includes('--dump') && dump) {
    for (const chunk of chunks) {
      for (const [name, spans] of ranges(chunk)) {
        if (name.includes(dump)) console.log(`--- ${name} in ${chunk.file}\n${spans.map(([from, to]) => chunk.code.slice(from, to)).join('\u2026')}`)
      }
    }
    return
  }
  const sorted = [...rows.entries()].sort((a, b) => b[1].gz - a[1].gz)
  const byFolder = new Map<string, { min: number; gz: number }>()
  for (const [name, row] of sorted) {
    const parts = name.split('/')
    const folder = name.startsWith('(') ? name : parts.slice(0, name.startsWith('src/') || name.startsWith('@') ? 2 : 1).join('/')
    const f = byFolder.get(folder) ?? { min: 0, gz: 0 }
    f.min += row.min
    f.gz += row.gz
    byFolder.set(folder, f)
  }
  const fmt = (n: number): string => n.toLocaleString('en-US').padStart(9)
  console.log(`${all ? 'every chunk' : 'facts-only worker'}: ${chunks.length} chunks, ${fmt(total)} B gz (gzip of each chunk), ${rows.size} modules`)
  console.log(`\n   min B   gz B (marginal)  module`)
  for (const [name, row] of sorted.slice(0, top)) console.log(`${fmt(row.min)} ${fmt(row.gz)}  ${name}`)
  console.log(`\n   min B   gz B (marginal)  folder or package`)
  for (const [name, row] of [...byFolder.entries()].sort((a, b) => b[1].gz - a[1].gz).slice(0, top)) console.log(`${fmt(row.min)} ${fmt(row.gz)}  ${name}`)
}

await main()
