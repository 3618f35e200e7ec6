/**
 * The five canonical SMALL v1.0.0 documents and `workspace.small.yml`, as plain data (what YAML
 * parses to). The JSON Schemas in schemas.ts are the authority; these types mirror them.
 */

export interface IntentDoc {
  readonly small_version: '1.0.0'
  readonly owner: 'human'
  readonly intent: string
  readonly scope: { readonly include: readonly string[]; readonly exclude: readonly string[] }
  readonly success_criteria: readonly string[]
}

export interface Constraint {
  readonly id: string
  readonly rule: string
  readonly severity: 'error' | 'warn'
}

export interface ConstraintsDoc {
  readonly small_version: '1.0.0'
  readonly owner: 'human'
  readonly constraints: readonly Constraint[]
}

/** A plan task. The schema allows extra properties; `status` is the one memweave reads. */
export interface PlanTask {
  readonly id: string
  readonly title: string
  readonly steps?: readonly string[]
  readonly acceptance?: readonly string[]
  readonly status?: string
  readonly [key: string]: unknown
}

export interface PlanDoc {
  readonly small_version: '1.0.0'
  readonly owner: 'agent'
  readonly tasks: readonly PlanTask[]
}

export const PROGRESS_STATUSES = ['pending', 'in_progress', 'completed', 'blocked', 'cancelled'] as const
export type ProgressStatus = (typeof PROGRESS_STATUSES)[number]

export interface ProgressEntry {
  readonly task_id: string
  /** RFC 3339 with fractional seconds, strictly after the previous entry's. */
  readonly timestamp?: string
  readonly replayId?: string
  readonly status?: ProgressStatus
  readonly evidence?: string | Readonly<Record<string, unknown>>
  readonly verification?: string | Readonly<Record<string, unknown>>
  readonly command?: string
  readonly command_summary?: string
  readonly command_sha256?: string
  readonly command_ref?: string
  readonly test?: string | Readonly<Record<string, unknown>>
  readonly link?: string
  readonly commit?: string
  readonly notes?: string
}

export interface ProgressDoc {
  readonly small_version: '1.0.0'
  readonly owner: 'agent'
  readonly entries: readonly ProgressEntry[]
}

export interface ReplayIdRef {
  readonly value: string
  readonly source: 'auto' | 'manual'
}

export interface HandoffDoc {
  readonly small_version: '1.0.0'
  readonly owner: 'agent'
  readonly summary: string
  readonly resume: { readonly current_task_id?: string | null; readonly next_steps: readonly string[] }
  readonly links: ReadonlyArray<{ readonly url?: string; readonly description?: string }>
  readonly replayId: ReplayIdRef
  readonly run?: {
    readonly created_at?: string
    readonly transition_reason?: 'reset' | 'archive' | 'manual' | 'self_heal'
    readonly previous_replay_id?: string
    readonly previous_run_ref?: string
  }
}

/** `workspace.small.yml`: not one of the five; memweave's own schema (schemas.ts) checks it. */
export interface WorkspaceDoc {
  readonly small_version: '1.0.0'
  readonly kind?: string
  readonly created_at?: string
  readonly updated_at?: string
  /** The current run (SMALL.md §6): once a plan exists, execution is bound to `run.replay_id`. */
  readonly run?: { readonly replay_id?: string; readonly [key: string]: unknown }
  readonly [key: string]: unknown
}

export interface SmallDocs {
  readonly intent: IntentDoc
  readonly constraints: ConstraintsDoc
  readonly plan: PlanDoc
  readonly progress: ProgressDoc
  readonly handoff: HandoffDoc
  readonly workspace: WorkspaceDoc
}
