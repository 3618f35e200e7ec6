/**
 * The layer rules of docs/architecture.md, checked against the code's imports (the test is
 * test/repo/architecture-layers.test.ts; `npx tsx scripts/layer-rules.ts` prints the same report).
 *
 * The rules are read from the doc's table, so the doc cannot drift from what is enforced: each row
 * names its layers (`src/facts/`, `src/memory.ts`) and what they may import, a comma-separated list
 * of layer names where `name (types)` allows type-only imports. Entries (the package's `exports`)
 * sit at the top of the house and may import any layer; the browser's entries must not reach a
 * Node-only layer or a `node:` module through value imports, static or dynamic. Imports are read
 * with the TypeScript compiler's parser (already a dependency; no second tool to keep in step with
 * the TypeScript syntax we use, and type-only imports are told apart exactly).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, posix, relative, sep } from 'node:path'
import ts from 'typescript'

/** One import of one source file. */
export interface ImportEdge {
  readonly from: string
  /** A repository-relative path for our files, the specifier for a package or `node:` module. */
  readonly to: string
  readonly typeOnly: boolean
  readonly local: boolean
}

/** What a layer may import: `value` (anything) or `types` (type-only imports). */
export type Allowance = 'value' | 'types'

export interface LayerRules {
  /** Layer name -> the layers it may import and how. */
  readonly allow: ReadonlyMap<string, ReadonlyMap<string, Allowance>>
  /** Path prefixes (folders end with '/') or files -> layer name. */
  readonly paths: ReadonlyArray<readonly [prefix: string, layer: string]>
}

/** Folders whose code runs only in Node. */
export const NODE_ONLY_LAYERS: readonly string[] = ['node', 'relay', 'cli', 'gmp-http', 'mcp']

/** Packages the protocol modules must never import (docs/architecture.md: the record log is their only way down). */
export const ENGINE_PACKAGES: readonly string[] = ['dexie', 'yjs', 'y-websocket', 'y-protocols', 'comlink']
const PROTOCOL_LAYERS: readonly string[] = ['facts', 'pools', 'working', 'small', 'artifacts', 'records', 'conflict']

/** Reads the table under "## Layers" of docs/architecture.md. */
export function parseLayerTable(markdown: string): LayerRules {
  const allow = new Map<string, Map<string, Allowance>>()
  const paths: Array<[string, string]> = []
  for (const line of markdown.split('\n')) {
    const cells = line.split('|').slice(1, -1).map((c) => c.trim())
    if (cells.length !== 3 || !cells[0]!.startsWith('`src/')) continue
    const names = [...cells[0]!.matchAll(/`(src\/[^`]+)`/g)].map((m) => m[1]!)
    const may = new Map<string, Allowance>()
    const text = cells[2]!
    if (text !== 'nothing of ours') {
      for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
        const m = /^([a-z-]+)(?: \((types)\))?$/.exec(part)
        if (!m) throw new Error(`docs/architecture.md: cannot read "${part}" in the row of ${names.join(', ')}`)
        may.set(m[1]!, m[2] ? 'types' : 'value')
      }
    }
    for (const path of names) {
      const layer = layerName(path)
      paths.push([path, layer])
      allow.set(layer, may)
    }
  }
  // The longest prefix wins (src/node/index.ts before src/node/).
  paths.sort((a, b) => b[0].length - a[0].length)
  return { allow, paths }
}

function layerName(path: string): string {
  const rest = path.slice('src/'.length)
  return rest.endsWith('/') ? rest.slice(0, -1) : rest.replace(/\.ts$/, '')
}

export function layerOf(rules: LayerRules, file: string): string | undefined {
  for (const [prefix, layer] of rules.paths) if (prefix.endsWith('/') ? file.startsWith(prefix) : file === prefix) return layer
  return undefined
}

/** The imports of one file's text: static, re-exports, dynamic `import()` and `import('x').T` types. */
export function importsOf(file: string, text: string, exists: (path: string) => boolean): ImportEdge[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true)
  const out: ImportEdge[] = []
  const add = (spec: string, typeOnly: boolean): void => {
    if (!spec.startsWith('.')) {
      out.push({ from: file, to: spec, typeOnly, local: false })
      return
    }
    const base = posix.normalize(posix.join(posix.dirname(file), spec))
    const candidates = [base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), `${base}.ts`, `${base}/index.ts`, base]
    out.push({ from: file, to: candidates.find(exists) ?? candidates[0]!, typeOnly, local: true })
  }
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const c = node.importClause
      const typeOnly = !!c && (c.isTypeOnly || (!c.name && !!c.namedBindings && ts.isNamedImports(c.namedBindings) && c.namedBindings.elements.length > 0 && c.namedBindings.elements.every((e) => e.isTypeOnly)))
      add(node.moduleSpecifier.text, typeOnly)
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly = node.isTypeOnly || (!!node.exportClause && ts.isNamedExports(node.exportClause) && node.exportClause.elements.length > 0 && node.exportClause.elements.every((e) => e.isTypeOnly))
      add(node.moduleSpecifier.text, typeOnly)
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      add(node.arguments[0].text, false)
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, true)
    }
    ts.forEachChild(node, visit)
  }
  visit(sf)
  return out
}

/** A source tree: repository-relative path -> text. */
export type SourceTree = ReadonlyMap<string, string>

export function readSourceTree(root: string, folders: readonly string[] = ['src', 'worker']): SourceTree {
  const files = new Map<string, string>()
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) files.set(relative(root, path).split(sep).join('/'), readFileSync(path, 'utf8'))
    }
  }
  for (const f of folders) if (existsSync(join(root, f))) walk(join(root, f))
  return files
}

/** The package's entries: its `exports` mapped back to their sources, browser or Node. */
export function entriesOf(pkg: { exports: Record<string, unknown> }, files: SourceTree): { browser: string[]; node: string[] } {
  const browser: string[] = []
  const node: string[] = []
  for (const [name, target] of Object.entries(pkg.exports)) {
    const js = typeof target === 'string' ? target : (target as { import?: string }).import
    if (!js || !js.endsWith('.js')) continue
    const source = js.startsWith('./dist/worker/') ? 'worker/memory-worker.ts' : js.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts')
    if (!files.has(source)) continue
    const isNode = NODE_ONLY_LAYERS.some((l) => source.startsWith(`src/${l}/`)) || name === './conformance'
    ;(isNode ? node : browser).push(source)
  }
  return { browser, node }
}

export interface Violation {
  readonly rule: 'layer' | 'engine-package' | 'browser-reaches-node' | 'circle' | 'no-layer'
  readonly message: string
}

/** Every broken rule of `files` under `rules`, the browser entries given. */
export function checkLayers(files: SourceTree, rules: LayerRules, entries: { browser: readonly string[]; node: readonly string[] }): Violation[] {
  const violations: Violation[] = []
  const exists = (p: string): boolean => files.has(p)
  const edges = new Map<string, ImportEdge[]>()
  for (const [file, text] of files) edges.set(file, importsOf(file, text, exists))
  const isEntry = new Set([...entries.browser, ...entries.node])

  for (const [file, list] of edges) {
    if (!file.startsWith('src/') || isEntry.has(file)) continue
    const from = layerOf(rules, file)
    if (from === undefined) {
      violations.push({ rule: 'no-layer', message: `${file} belongs to no layer of docs/architecture.md` })
      continue
    }
    for (const e of list) {
      if (!e.local) {
        if (PROTOCOL_LAYERS.includes(from) && !e.typeOnly && ENGINE_PACKAGES.includes(e.to)) {
          violations.push({ rule: 'engine-package', message: `${file} (${from}) imports ${e.to}` })
        }
        continue
      }
      if (!e.to.startsWith('src/')) continue
      const to = layerOf(rules, e.to)
      if (to === undefined || to === from) continue
      const may = rules.allow.get(from)?.get(to)
      if (may === 'value' || (may === 'types' && e.typeOnly)) continue
      violations.push({ rule: 'layer', message: `${file} (${from}) imports ${e.to} (${to})${e.typeOnly ? ' (types)' : ''}; docs/architecture.md allows ${from}: ${[...(rules.allow.get(from) ?? new Map<string, Allowance>())].map(([l, a]) => (a === 'types' ? `${l} (types)` : l)).join(', ') || 'nothing of ours'}` })
    }
  }

  // What a browser entry loads, statically or on demand, never reaches the Node wing.
  for (const entry of entries.browser) {
    const parent = new Map<string, string | null>([[entry, null]])
    const queue = [entry]
    while (queue.length) {
      const file = queue.shift()!
      for (const e of edges.get(file) ?? []) {
        if (e.typeOnly) continue
        const chain = (): string => {
          const path: string[] = []
          for (let f: string | null | undefined = file; f; f = parent.get(f)) path.unshift(f)
          return [...path, e.to].join(' -> ')
        }
        if (!e.local) {
          if (e.to.startsWith('node:')) violations.push({ rule: 'browser-reaches-node', message: `browser entry reaches ${e.to}: ${chain()}` })
          continue
        }
        const to = layerOf(rules, e.to)
        if (to !== undefined && NODE_ONLY_LAYERS.includes(to)) {
          violations.push({ rule: 'browser-reaches-node', message: `browser entry reaches the Node-only ${to}: ${chain()}` })
          continue
        }
        if (!parent.has(e.to) && files.has(e.to)) {
          parent.set(e.to, file)
          queue.push(e.to)
        }
      }
    }
  }

  // No circles between files, type-only imports included (a circle of types still ties two files into one unit).
  for (const circle of circles(edges)) violations.push({ rule: 'circle', message: `import circle: ${[...circle, circle[0]].join(' -> ')}` })
  return violations
}

/** Strongly connected components of more than one file (Tarjan, iterative enough for our depth). */
function circles(edges: ReadonlyMap<string, readonly ImportEdge[]>): string[][] {
  let index = 0
  const idx = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const on = new Set<string>()
  const out: string[][] = []
  const strong = (v: string): void => {
    idx.set(v, index)
    low.set(v, index++)
    stack.push(v)
    on.add(v)
    for (const e of edges.get(v) ?? []) {
      if (!e.local || !edges.has(e.to)) continue
      if (!idx.has(e.to)) {
        strong(e.to)
        low.set(v, Math.min(low.get(v)!, low.get(e.to)!))
      } else if (on.has(e.to)) low.set(v, Math.min(low.get(v)!, idx.get(e.to)!))
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = []
      let w: string
      do {
        w = stack.pop()!
        on.delete(w)
        comp.push(w)
      } while (w !== v)
      if (comp.length > 1) out.push(comp.reverse())
    }
  }
  for (const v of [...edges.keys()].sort()) if (!idx.has(v)) strong(v)
  return out
}

/** The check as the repository stands. */
export function checkRepository(root: string): Violation[] {
  const files = readSourceTree(root)
  const rules = parseLayerTable(readFileSync(join(root, 'docs/architecture.md'), 'utf8'))
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }
  return checkLayers(files, rules, entriesOf(pkg, files))
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split(sep).pop()!)) {
  const found = checkRepository(join(dirname(new URL(import.meta.url).pathname), '..'))
  for (const v of found) console.log(`${v.rule}: ${v.message}`)
  console.log(found.length ? `${found.length} broken layer rules` : 'layer rules hold')
  process.exitCode = found.length ? 1 : 0
}
