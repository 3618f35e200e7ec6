import { cp, mkdtemp, readFile, readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createIdentity, createMemory, type Memory } from '../../src/index.js'
import { fileStorage, type FileStorageOptions } from '../../src/node/index.js'
import { OWNER_SEED, type Written } from '../../scripts/upgrade-fixture-data.js'
import { FIXTURE_COMMITS } from '../../scripts/upgrade-fixture-commits.js'

/** The stores older commits of main wrote (scripts/make-upgrade-fixtures.ts; formats in test/fixtures/upgrade/README.md). */
export const FIXTURES_DIR = join(import.meta.dirname, '..', 'fixtures/upgrade')
export { FIXTURE_COMMITS }

export interface Expected {
  readonly commit: string
  readonly owner: string
  readonly written: Written
  /** What the old build read back (scripts/upgrade-fixture-data.ts readBack). */
  readonly answers: Record<string, unknown>
}

export async function expectedOf(sha: string): Promise<Expected> {
  return JSON.parse(await readFile(join(FIXTURES_DIR, sha, 'expected.json'), 'utf8')) as Expected
}

/** A copy of the fixture's store in a temp dir: the committed files are never opened for writing. */
export async function copyStore(sha: string): Promise<string> {
  const dir = join(await mkdtemp(join(tmpdir(), `mw-upgrade-${sha}-`)), 'store')
  await cp(join(FIXTURES_DIR, sha, 'store'), dir, { recursive: true })
  return dir
}

/** Opens a store with today's build, as the owner, with the writer's clock stopped at its read instant. */
export async function openStore(dir: string, w: Written, options: Partial<FileStorageOptions> = {}): Promise<Memory> {
  const identity = await createIdentity({ seed: OWNER_SEED })
  return createMemory({ storage: fileStorage({ dir, ...options }), identity, now: () => w.readAt })
}

/** Every file of the directory, name to bytes. */
export async function filesOf(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>()
  for (const name of (await readdir(dir)).sort()) out.set(name, await readFile(join(dir, name)))
  return out
}
