import { hasEvidence } from './evidence.js'
import { SmallRule, type Finding } from './findings.js'
import { SMALL_DIR, SMALL_EXT_DIR, SMALL_DOCS, fileNameOf, filePathOf } from './layout.js'

/**
 * The checks `--strict` adds (SMALL.md §6 and §8, and the reference CLI's S1-S4):
 * - S4 layout: only the canonical files under `.small/`, extensions under `.small/ext/`;
 * - S1 a plan task marked completed or blocked has a progress entry with evidence;
 * - S2 a run-bound progress entry names a task of the plan;
 * - S3 the handoff's current task is in the plan.
 */

/** One entry of the `.small/` directory listing. */
export interface LayoutEntry {
  readonly name: string
  readonly directory: boolean
}

const CANONICAL_FILES = new Set(SMALL_DOCS.map(fileNameOf))

export function layoutFindings(entries: readonly LayoutEntry[]): Finding[] {
  const findings: Finding[] = []
  for (const e of [...entries].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (e.directory ? e.name === SMALL_EXT_DIR : CANONICAL_FILES.has(e.name)) continue
    const what = e.directory ? 'directory' : 'file'
    findings.push({
      severity: 'error',
      file: `${SMALL_DIR}/${e.name}${e.directory ? '/' : ''}`,
      pointer: '',
      rule: SmallRule.STRICT_LAYOUT,
      message:
        CANONICAL_FILES.has(e.name)
          ? `is a directory where a canonical file belongs`
          : `unexpected ${what} under ${SMALL_DIR}/: strict mode allows only the canonical files there (SMALL.md §8); ` +
            `move extensions to ${SMALL_DIR}/${SMALL_EXT_DIR}/ and operational data to .small-cache/`,
    })
  }
  return findings
}

interface Docs {
  readonly plan?: unknown
  readonly progress?: unknown
  readonly handoff?: unknown
  readonly workspace?: unknown
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function tasksOf(plan: unknown): Array<{ id: string; status: string; index: number }> {
  const tasks = isObject(plan) && Array.isArray(plan['tasks']) ? plan['tasks'] : []
  return tasks.flatMap((t, index) =>
    isObject(t) && typeof t['id'] === 'string' ? [{ id: t['id'], status: typeof t['status'] === 'string' ? t['status'].trim().toLowerCase() : '', index }] : [],
  )
}

function entriesOf(progress: unknown): unknown[] {
  return isObject(progress) && Array.isArray(progress['entries']) ? progress['entries'] : []
}

/** The replayId of the current run: the workspace's `run.replay_id`, else the handoff's. */
export function currentRunId(docs: Docs): string | null {
  const run = isObject(docs.workspace) ? docs.workspace['run'] : undefined
  if (isObject(run) && typeof run['replay_id'] === 'string') return run['replay_id'].toLowerCase()
  const rid = isObject(docs.handoff) ? docs.handoff['replayId'] : undefined
  return isObject(rid) && typeof rid['value'] === 'string' ? rid['value'].toLowerCase() : null
}

/**
 * Whether an entry is bound to the current run (SMALL.md §6): bootstrap entries (`meta/...`) are
 * not, and neither is an entry that carries another run's replayId (its plan is gone: plans are
 * disposable). An entry without a replayId cannot show it belongs elsewhere, so it counts.
 */
export function isRunBound(entry: Record<string, unknown>, runId: string | null): boolean {
  if (typeof entry['task_id'] === 'string' && entry['task_id'].startsWith('meta/')) return false
  const rid = entry['replayId']
  return !(typeof rid === 'string' && runId !== null && rid.toLowerCase() !== runId)
}

export function strictFindings(docs: Docs): Finding[] {
  const findings: Finding[] = []
  const tasks = tasksOf(docs.plan)
  const ids = new Set(tasks.map((t) => t.id))
  const entries = entriesOf(docs.progress).filter(isObject)
  if (docs.plan !== undefined && docs.progress !== undefined) {
    for (const t of tasks) {
      if (t.status !== 'completed' && t.status !== 'blocked') continue
      if (entries.some((e) => e['task_id'] === t.id && hasEvidence(e))) continue
      findings.push({
        severity: 'error', file: filePathOf('plan'), pointer: `/tasks/${t.index}/status`, rule: SmallRule.STRICT_TASK_EVIDENCE,
        message: `task "${t.id}" is ${t.status} but no progress entry with evidence names it; append one (memweave small progress add --task ${t.id} --evidence "...")`,
      })
    }
    const runId = currentRunId(docs)
    entriesOf(docs.progress).forEach((e, i) => {
      if (!isObject(e) || typeof e['task_id'] !== 'string' || !isRunBound(e, runId) || ids.has(e['task_id'])) return
      findings.push({
        severity: 'error', file: filePathOf('progress'), pointer: `/entries/${i}/task_id`, rule: SmallRule.STRICT_PROGRESS_TASK,
        message: `task "${e['task_id']}" is not in the plan${closest(e['task_id'], ids)}; progress of the current run must name plan tasks (bootstrap entries use meta/...)`,
      })
    })
  }
  if (docs.plan !== undefined && isObject(docs.handoff) && isObject(docs.handoff['resume'])) {
    const current = docs.handoff['resume']['current_task_id']
    if (typeof current === 'string' && current !== '' && !current.startsWith('meta/') && !ids.has(current)) {
      findings.push({
        severity: 'error', file: filePathOf('handoff'), pointer: '/resume/current_task_id', rule: SmallRule.STRICT_HANDOFF_TASK,
        message: `the current task "${current}" is not in the plan${closest(current, ids)}; regenerate the handoff (memweave small handoff) or fix the plan`,
      })
    }
  }
  return findings
}

function closest(id: string, ids: ReadonlySet<string>): string {
  const near = [...ids].filter((t) => t.includes(id) || id.includes(t) || t.toLowerCase() === id.toLowerCase()).sort().slice(0, 3)
  return near.length ? ` (did you mean ${near.join(', ')}?)` : ''
}
