/**
 * Makes the upgrade fixtures (issue 28): for each commit, checks it out into a temporary worktree,
 * writes known data through that commit's own public API (scripts/upgrade-fixture-writer.ts: a file
 * store in Node) and saves the store with what that build answered under
 * test/fixtures/upgrade/<commit>/. test/upgrade.test.ts opens each with today's code.
 *
 *   npx tsx scripts/make-upgrade-fixtures.ts [--npm-ci] <commit>...
 *
 * By default the checkout borrows this worktree's node_modules (a symlink): quick, and right as long
 * as the old commit's dependencies are a subset at compatible versions; --npm-ci installs its own
 * from its package-lock.json instead (slow).
 */
import { execFileSync } from 'node:child_process'
import { cp, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const args = process.argv.slice(2)
const npmCi = args.includes('--npm-ci')
const commits = args.filter((a) => a !== '--npm-ci')
if (commits.length === 0) throw new Error('usage: make-upgrade-fixtures.ts [--npm-ci] <commit>...')
const repo = resolve(import.meta.dirname, '..')
const git = (...a: string[]): string => execFileSync('git', a, { cwd: repo, encoding: 'utf8' }).trim()

for (const ref of commits) {
  const commit = git('rev-parse', '--short=7', ref)
  const tmp = await mkdtemp(join(tmpdir(), `memweave-fixture-${commit}-`))
  const tree = join(tmp, 'tree')
  git('worktree', 'add', '--detach', tree, commit)
  try {
    if (npmCi) execFileSync('npm', ['ci', '--ignore-scripts'], { cwd: tree, stdio: 'inherit' })
    else await symlink(join(repo, 'node_modules'), join(tree, 'node_modules'), 'dir')
    const out = join(tmp, 'out')
    await mkdir(out)
    execFileSync(join(repo, 'node_modules/.bin/tsx'), [join(repo, 'scripts/upgrade-fixture-writer.ts'), out], { cwd: tree, stdio: 'inherit' })
    const dest = join(repo, 'test/fixtures/upgrade', commit)
    await rm(dest, { recursive: true, force: true })
    await cp(out, dest, { recursive: true })
    // The pid lock is the writer's, long gone.
    await rm(join(dest, 'store', 'LOCK'), { force: true })
    console.log(`fixture ${commit} -> ${dest}`)
  } finally {
    git('worktree', 'remove', '--force', tree)
    await rm(tmp, { recursive: true, force: true })
  }
}
