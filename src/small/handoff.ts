import { invalidArgument } from '../core/errors.js'
import { SMALL_VERSION } from './layout.js'
import { computeReplayId, normalizeReplayId, type ReplayInputs } from './replay-id.js'
import { currentRunId } from './strict.js'
import type { HandoffDoc, ReplayIdRef } from './types.js'

/**
 * Regenerates the handoff, the one resume entrypoint (SMALL.md invariant 4), from the plan and the
 * progress so far: the current task, the next steps, a summary that names the latest progress, and
 * the replayId that binds the run. The run's id is the workspace's `run.replay_id` when the
 * workspace has one (§6), else the SHA-256 of intent, plan and constraints (replay-id.ts), or a
 * manual one the caller gives.
 */
export interface HandoffInput {
  readonly plan: unknown
  readonly progress: unknown
  /** The text (or bytes) of intent, plan and constraints, for the automatic replayId. */
  readonly replay: ReplayInputs
  /** The handoff being replaced: its links are kept, and its run block while the run is the same. */
  readonly previous?: unknown
  readonly workspace?: unknown
}

export interface HandoffOptions {
  /** The summary to write; default: one computed from plan and progress. */
  readonly summary?: string
  /** A manual replayId (64 hex digits); default: automatic. */
  readonly replayId?: string
  /** How many next steps to list (default 5). */
  readonly nextSteps?: number
}

export type TaskStatus = 'pending' | 'in_progress' | 'completed' | 'blocked' | 'cancelled' | string

interface Task {
  readonly id: string
  readonly title: string
  readonly steps: readonly string[]
  readonly status: TaskStatus
}

const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {})
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

/**
 * Each plan task with its status now: the status of its latest progress entry (progress is the
 * record of what happened), else the plan's own `status`, else pending.
 */
export function taskStatuses(plan: unknown, progress: unknown): Task[] {
  const latest = new Map<string, string>()
  for (const e of list(obj(progress)['entries'])) {
    const entry = obj(e)
    if (typeof entry['task_id'] === 'string' && typeof entry['status'] === 'string') latest.set(entry['task_id'], entry['status'])
  }
  return list(obj(plan)['tasks']).flatMap((t) => {
    const task = obj(t)
    if (typeof task['id'] !== 'string') return []
    const own = typeof task['status'] === 'string' && task['status'].trim() !== '' ? task['status'].trim().toLowerCase() : 'pending'
    return [{
      id: task['id'],
      title: typeof task['title'] === 'string' ? task['title'] : task['id'],
      steps: list(task['steps']).filter((s): s is string => typeof s === 'string'),
      status: latest.get(task['id']) ?? own,
    }]
  })
}

/** The task to resume: the first in progress, else the first pending, else the first blocked; null when none is open. */
export function currentTask(tasks: readonly Task[]): Task | null {
  for (const status of ['in_progress', 'pending', 'blocked']) {
    const t = tasks.find((x) => x.status === status)
    if (t) return t
  }
  return null
}

export function buildHandoff(input: HandoffInput, options: HandoffOptions = {}): HandoffDoc {
  const limit = options.nextSteps ?? 5
  if (!Number.isInteger(limit) || limit < 0) throw invalidArgument('nextSteps', 'must be a non-negative integer')
  const tasks = taskStatuses(input.plan, input.progress)
  const current = currentTask(tasks)
  const steps: string[] = []
  if (current) {
    if (current.status === 'blocked') steps.push(`Unblock ${current.id}: ${current.title}`)
    else if (current.steps.length > 0) for (const step of current.steps) steps.push(step)
    else steps.push(`Continue ${current.id}: ${current.title}`)
    for (const t of tasks) if (t !== current && t.status === 'pending') steps.push(`Then ${t.id}: ${t.title}`)
  }
  const replayId = replayIdFor(input, options.replayId)
  const previous = obj(input.previous)
  const prevRid = obj(previous['replayId'])['value']
  const summary = options.summary?.trim() || computeSummary(tasks, current, input.progress)
  return {
    small_version: SMALL_VERSION,
    owner: 'agent',
    summary,
    resume: { current_task_id: current?.id ?? null, next_steps: steps.slice(0, limit) },
    links: list(previous['links']).filter((l) => typeof l === 'object' && l !== null) as HandoffDoc['links'],
    replayId,
    ...(previous['run'] && typeof prevRid === 'string' && prevRid.toLowerCase() === replayId.value ? { run: previous['run'] as HandoffDoc['run'] } : {}),
  }
}

function replayIdFor(input: HandoffInput, manual: string | undefined): ReplayIdRef {
  if (manual !== undefined) {
    const value = normalizeReplayId(manual)
    if (!value) throw invalidArgument('replayId', `must be 64 hexadecimal digits (a SHA-256), got "${manual}"`)
    return { value, source: 'manual' }
  }
  const run = input.workspace === undefined ? null : currentRunId({ workspace: input.workspace })
  return { value: run ?? computeReplayId(input.replay), source: 'auto' }
}

function computeSummary(tasks: readonly Task[], current: Task | null, progress: unknown): string {
  const done = tasks.filter((t) => t.status === 'completed').length
  const parts: string[] = []
  if (tasks.length === 0) parts.push('The plan has no tasks yet.')
  else if (!current) parts.push(`All ${tasks.length} plan tasks are done (${done} completed).`)
  else parts.push(`${done} of ${tasks.length} plan tasks completed. Current: ${current.id} (${current.title}), ${current.status.replace('_', ' ')}.`)
  const last = obj(list(obj(progress)['entries']).at(-1))
  if (typeof last['task_id'] === 'string') {
    const what = [last['status'], typeof last['timestamp'] === 'string' ? `at ${last['timestamp']}` : null].filter(Boolean).join(' ')
    parts.push(`Latest progress: ${last['task_id']}${what ? ` ${what}` : ''}.`)
  }
  return parts.join(' ')
}
