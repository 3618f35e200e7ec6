/**
 * `npm run build`'s last step: removes from dist/src what no module of src/ compiles to any more.
 * tsc never deletes the output of a renamed or deleted module, so a working tree that had built
 * older code packed its stale modules (1,288,615 B packed with dist/src/conflict/slots.js beside
 * read/slots.js, 1,266,894 B from a clean build). Emptying dist/ before the build would do the same,
 * but `npm pack` (the consumer e2e test runs it) would then leave a relay started from dist/ without
 * its modules for the length of a build; a prune only ever removes files nothing imports.
 * Vite empties dist/worker itself.
 */
import { existsSync, readdirSync, rmdirSync, unlinkSync } from 'node:fs'
import { join, relative } from 'node:path'

const OUTPUT = /\.(?:d\.ts|js)$/

/** Files under dist/src whose module is gone from src/; folders left empty go too. Returns the removed paths. */
export function pruneDist(root: string): string[] {
  const removed: string[] = []
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) {
        walk(path)
        if (readdirSync(path).length === 0) rmdirSync(path)
        continue
      }
      if (!OUTPUT.test(entry.name)) continue
      const module = relative(join(root, 'dist'), path).replace(OUTPUT, '')
      if (existsSync(join(root, `${module}.ts`)) || existsSync(join(root, `${module}.tsx`))) continue
      unlinkSync(path)
      removed.push(relative(root, path))
    }
  }
  const out = join(root, 'dist', 'src')
  if (existsSync(out)) walk(out)
  return removed
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const removed = pruneDist(process.cwd())
  if (removed.length > 0) console.log(`prune-dist: removed ${removed.length} stale file(s) from dist/src`)
}
