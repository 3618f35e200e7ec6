import { existsSync, readFileSync } from 'node:fs'
import { cp, mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SMALL_DOCS, fileNameOf, type SmallDocName } from '../../src/small/layout.js'
import type { WorkspaceFiles } from '../../src/small/validate.js'
import { SHARED_DIR } from '../helpers/shared-path.js'

export const SMALL_SPEC = join(SHARED_DIR, 'specs', 'small')
export const VALID_EXAMPLE = join(SMALL_SPEC, 'examples', 'spec-v1.0.0')
/** The older examples whose handoff has `resume.current_task_id: ""`. */
export const OLDER_EXAMPLES = ['mandatory-replayid', 'replayid-v1', 'verify-evidence-gate', 'workspace-root-enforced'].map((n) => join(SMALL_SPEC, 'examples', n))
export const V01_WORKSPACE = join(SMALL_SPEC, 'negative', 'v0.1-examples')

/** The documents of an example folder as text. */
export function readExample(dir: string): Partial<Record<SmallDocName, string>> {
  const files: Partial<Record<SmallDocName, string>> = {}
  for (const name of SMALL_DOCS) {
    const path = join(dir, '.small', fileNameOf(name))
    if (existsSync(path)) files[name] = readFileSync(path, 'utf8')
  }
  return files
}

export function asFiles(docs: Partial<Record<SmallDocName, string>>): WorkspaceFiles {
  return docs
}

/** A scratch copy of an example (tests write; the shared folder stays untouched). */
export async function copyExample(dir: string): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'memweave-small-'))
  await cp(join(dir, '.small'), join(root, '.small'), { recursive: true })
  return root
}

export async function scratchDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'memweave-small-'))
}

/** A valid workspace built in code (documents as text), for invariant tests to bend. */
export const BASE = {
  intent: 'small_version: "1.0.0"\nowner: human\nintent: Ship it\nscope:\n  include: []\n  exclude: []\nsuccess_criteria: []\n',
  constraints: 'small_version: "1.0.0"\nowner: human\nconstraints:\n  - id: no-secrets\n    rule: No secrets\n    severity: error\n',
  plan: 'small_version: "1.0.0"\nowner: agent\ntasks:\n  - id: t1\n    title: First\n    status: completed\n  - id: t2\n    title: Second\n',
  progress:
    'small_version: "1.0.0"\nowner: agent\nentries:\n  - task_id: t1\n    timestamp: "2025-01-01T00:00:00.000000001Z"\n    status: completed\n    evidence: done\n',
  handoff:
    'small_version: "1.0.0"\nowner: agent\nsummary: Next is t2\nresume:\n  current_task_id: t2\n  next_steps: []\nlinks: []\nreplayId:\n  value: ' +
    'a'.repeat(64) + '\n  source: manual\n',
} as const satisfies Partial<Record<SmallDocName, string>>
