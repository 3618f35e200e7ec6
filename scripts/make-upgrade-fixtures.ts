// Writes the upgrade fixtures of issue 28: for each commit below, builds that commit of main in a
// detached worktree under /tmp and writes known data (scripts/upgrade-fixture-data.ts) through
// its public API into a Node file store, saved as test/fixtures/upgrade/<sha>/store/, with
// expected.json: what that old build read back. test/package/upgrade-fixtures.test.ts opens each with
// today's code and compares field by field.
//
//   npx tsx scripts/make-upgrade-fixtures.ts            # every commit below
//   npx tsx scripts/make-upgrade-fixtures.ts 7dd317d    # one
//
// The old build uses this worktree's node_modules (symlinked; the dependencies the build needs
// are the same since 01f0bea) and only tsc, not the worker bundle: the file store needs neither.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Memory } from '../src/memory.js'
import { MEMBER_SEED, OWNER_SEED, clock, readBack, writeKnownData } from './upgrade-fixture-data.js'
import { FIXTURE_COMMITS } from './upgrade-fixture-commits.js'


const ROOT = resolve(import.meta.dirname, '..')
const OUT = join(ROOT, 'test/fixtures/upgrade')

function run(cmd: string, args: readonly string[], cwd: string): string {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
}

async function build(sha: string): Promise<string> {
  const dir = `/tmp/mw-old-${sha}`
  if (!existsSync(dir)) run('git', ['worktree', 'add', '--detach', dir, sha], ROOT)
  if (!existsSync(join(dir, 'node_modules'))) await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
  run(join(ROOT, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.build.json'], dir)
  return dir
}

/** Runs in a child process against one old build: writes the store and expected.json into `out`. */
async function write(checkout: string, out: string, sha: string): Promise<void> {
  const api = (await import(pathToFileURL(join(checkout, 'dist/src/index.js')).href)) as typeof import('../src/index.js')
  const nodeEntry = ['dist/src/node/index.js', 'dist/src/node.js'].map((p) => join(checkout, p)).find((p) => existsSync(p))
  if (!nodeEntry) throw new Error(`${checkout}: no Node entry in dist`)
  const node = (await import(pathToFileURL(nodeEntry).href)) as typeof import('../src/node/index.js')
  const identity = await api.createIdentity({ seed: OWNER_SEED })
  const member = (await api.createIdentity({ seed: MEMBER_SEED })).did
  const c = clock()
  const storeDir = join(out, 'store')
  await rm(out, { recursive: true, force: true })
  await mkdir(out, { recursive: true })
  const mem = (await api.createMemory({ storage: node.fileStorage({ dir: storeDir }), identity, now: c.now })) as unknown as Memory
  const written = await writeKnownData(mem, c, member)
  const answers = await readBack(mem, written)
  await mem.close()
  const writtenBy = run('git', ['log', '-1', '--format=%H %cI %s', sha], checkout).trim().slice(0, 200)
  await writeFile(join(out, 'expected.json'), JSON.stringify({ commit: writtenBy, owner: identity.did, written, answers }, null, 1) + '\n')
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  if (args[0] === '--write') return write(args[1]!, args[2]!, args[3]!)
  const shas = args.length > 0 ? args : FIXTURE_COMMITS
  for (const sha of shas) {
    console.log(`${sha}: building`)
    const checkout = await build(sha)
    const out = join(OUT, sha)
    // A process of its own: the old build's modules, not this one's, and a clean exit when done.
    run(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/make-upgrade-fixtures.ts'), '--write', checkout, out, sha], ROOT)
    run('git', ['worktree', 'remove', '--force', checkout], ROOT)
    console.log(`${sha}: ${out}`)
  }
}

await main()
