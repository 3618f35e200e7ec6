import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { checkLayers, checkRepository, entriesOf, parseLayerTable, readSourceTree, type SourceTree } from '../../scripts/layer-rules.js'

/**
 * Issue 30: the layer rules of docs/architecture.md hold in the code, checked from the doc's own
 * table (scripts/layer-rules.ts). The tests below the first are the test of the test: each breaks
 * one rule in a small tree and shows the checker names it.
 */
const root = join(import.meta.dirname, '../..')
const rules = parseLayerTable(readFileSync(join(root, 'docs/architecture.md'), 'utf8'))

test('the code keeps the layer rules of docs/architecture.md, with no import circle', () => {
  expect(checkRepository(root).map((v) => `${v.rule}: ${v.message}`)).toEqual([])
})

test('the package entries are found: the browser entry and the worker apart from the Node ones', () => {
  const files = readSourceTree(root)
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }
  const entries = entriesOf(pkg, files)
  expect(entries.browser).toEqual(expect.arrayContaining(['src/index.ts', 'worker/memory-worker.ts']))
  expect(entries.node).toEqual(expect.arrayContaining(['src/node/index.ts', 'src/mcp/index.ts']))
})

const noEntries = { browser: [], node: [] }

function tree(files: Record<string, string>): SourceTree {
  return new Map(Object.entries(files))
}

test('a protocol module that imports src/sync/ or the Node wing is refused', () => {
  const found = checkLayers(tree({
    'src/facts/store.ts': "import { SyncStore } from '../sync/store.js'\nimport { fileStorage } from '../node/file-adapter.js'\n",
    'src/sync/store.ts': 'export class SyncStore {}\n',
    'src/node/file-adapter.ts': 'export const fileStorage = 1\n',
  }), rules, noEntries)
  expect(found.map((v) => v.rule)).toEqual(['layer', 'layer'])
  expect(found[0]!.message).toContain('src/facts/store.ts (facts) imports src/sync/store.ts (sync)')
  expect(found[1]!.message).toContain('imports src/node/file-adapter.ts (node)')
})

test('a type-only import passes where the doc allows types, and a value import there does not', () => {
  const files = {
    'src/pools/view.ts': "import type { FactStore } from '../facts/types.js'\n",
    'src/facts/types.ts': 'export interface FactStore {}\nexport const x = 1\n',
    'src/working/store.ts': "import type { StoragePort } from '../storage/port.js'\nimport { open } from '../storage/port.js'\n",
    'src/storage/port.ts': 'export interface StoragePort {}\nexport const open = 1\n',
  }
  const found = checkLayers(tree(files), rules, noEntries)
  expect(found.map((v) => v.message)).toEqual([expect.stringContaining('src/working/store.ts (working) imports src/storage/port.ts (storage);')])
})

test('a browser entry that reaches a Node-only file or a node: module, even through a dynamic import, is refused', () => {
  const found = checkLayers(tree({
    'src/index.ts': "export { openMemory } from './client.js'\n",
    'src/client.ts': "export async function openMemory() { return import('./runtime/host.js') }\n",
    'src/runtime/host.ts': "import { readFile } from 'node:fs/promises'\nexport const load = readFile\n",
  }), rules, { browser: ['src/index.ts'], node: [] })
  expect(found.map((v) => v.rule)).toEqual(['browser-reaches-node'])
  expect(found[0]!.message).toBe('browser entry reaches node:fs/promises: src/index.ts -> src/client.ts -> src/runtime/host.ts -> node:fs/promises')
  const wing = checkLayers(tree({
    'src/index.ts': "export * from './memory.js'\n",
    'src/memory.ts': "export const x = () => import('./relay/server.js')\n",
    'src/relay/server.ts': 'export const y = 1\n',
  }), rules, { browser: ['src/index.ts'], node: [] })
  expect(wing.map((v) => v.rule)).toEqual(['layer', 'browser-reaches-node'])
  expect(wing[1]!.message).toContain('the Node-only relay')
})

test('a protocol module importing Dexie, Yjs or comlink is refused; a file in no layer is named; a circle is named', () => {
  const found = checkLayers(tree({
    'src/small/store.ts': "import Dexie from 'dexie'\nimport * as Y from 'yjs'\n",
    'src/mystery/thing.ts': 'export {}\n',
    'src/sync/a.ts': "import type { B } from './b.js'\nexport interface A { b?: B }\n",
    'src/sync/b.ts': "import type { A } from './a.js'\nexport interface B { a?: A }\n",
  }), rules, noEntries)
  expect(found.map((v) => v.rule).sort()).toEqual(['circle', 'engine-package', 'engine-package', 'no-layer'])
  expect(found.find((v) => v.rule === 'circle')!.message).toBe('import circle: src/sync/a.ts -> src/sync/b.ts -> src/sync/a.ts')
})

test('a rule the checker cannot read is an error, not a silent pass', () => {
  expect(() => parseLayerTable('| `src/core/` | x | core and whatever else |\n')).toThrow(/cannot read "core and whatever else"/)
})
