import { SMALL_VERSION } from './layout.js'
import type { ConstraintsDoc, IntentDoc, PlanDoc, ProgressDoc, WorkspaceDoc } from './types.js'

/**
 * The documents `small init` starts a workspace with. Each one is valid on its own, so a fresh
 * workspace passes `validate --strict`: the plan has a first task to replace, and progress starts
 * with the bootstrap entry `meta/init` (SMALL.md §6: allowed without a replayId).
 */
export interface TemplateOptions {
  readonly intent?: string
  /** The timestamp of the bootstrap progress entry and of the workspace (RFC 3339, fractional seconds). */
  readonly timestamp: string
}

export function intentTemplate(options: TemplateOptions): IntentDoc {
  return {
    small_version: SMALL_VERSION,
    owner: 'human',
    intent: options.intent?.trim() || 'Describe what this project is for and what done looks like.',
    scope: { include: [], exclude: [] },
    success_criteria: [],
  }
}

export function constraintsTemplate(): ConstraintsDoc {
  return {
    small_version: SMALL_VERSION,
    owner: 'human',
    constraints: [{ id: 'no-secrets', rule: 'No secrets, keys, tokens or passwords in .small/ artifacts', severity: 'error' }],
  }
}

export function planTemplate(): PlanDoc {
  return {
    small_version: SMALL_VERSION,
    owner: 'agent',
    tasks: [{ id: 'task-1', title: 'Read the intent and constraints, then replace this task with a real plan', status: 'pending' }],
  }
}

export function progressTemplate(options: TemplateOptions): ProgressDoc {
  return {
    small_version: SMALL_VERSION,
    owner: 'agent',
    entries: [{ task_id: 'meta/init', timestamp: options.timestamp, status: 'completed', evidence: 'Workspace created by memweave small init' }],
  }
}

/** The workspace, bound to a run (SMALL.md §6) when `runId` is given. */
export function workspaceTemplate(options: TemplateOptions & { readonly runId?: string | null }): WorkspaceDoc {
  return {
    small_version: SMALL_VERSION,
    kind: 'root',
    created_at: options.timestamp,
    ...(options.runId ? { run: { replay_id: options.runId, created_at: options.timestamp } } : {}),
  }
}
