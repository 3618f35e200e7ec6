import { taskStatuses } from '../small/handoff.js'
import { PROGRESS_STATUSES, type PlanTask, type ProgressStatus } from '../small/types.js'
import { appendProgressEntry, writeDocument } from '../node/small-workspace-dir.js'
import { EXIT, UsageError, type CliIO, type Command } from './command.js'
import { COMMON, dirOf, fail, list, loadDoc, parse, printWarnings } from './small-io.js'

// `memweave small progress` and `memweave small plan`: the agent-owned documents.
const ENTRY_FLAGS = {
  ...COMMON,
  task: { type: 'string' },
  status: { type: 'string' },
  evidence: { type: 'string' },
  verification: { type: 'string' },
  command: { type: 'string' },
  test: { type: 'string' },
  link: { type: 'string' },
  commit: { type: 'string' },
  notes: { type: 'string' },
  timestamp: { type: 'string' },
  'replay-id': { type: 'string' },
} as const

export const progress: Command = {
  name: 'progress',
  summary: 'Append a progress entry with evidence (add), or list the entries (list)',
  usage: `Usage: memweave small progress add --task ID [--status S] (--evidence E | --command C | --test T
                                  | --verification V | --link URL | --commit SHA) [--notes N] [--dir D]
       memweave small progress list [--dir D]

add appends one entry to .small/progress.small.yml. It needs at least one evidence field (notes
alone are not evidence). The timestamp is now, with nanosecond digits, and always later than the
last entry's (or give --timestamp). Earlier entries are never changed.

Options:
  --task ID          The plan task (bootstrap entries use meta/...)
  --status S         ${PROGRESS_STATUSES.join(', ')}
  --evidence E, --verification V, --command C, --test T, --link URL, --commit SHA
                     Evidence of the progress
  --notes N          Commentary
  --timestamp T      RFC 3339 with fractional seconds (default: now)
  --replay-id HEX    The run this entry belongs to (default: the current run's)
  --dir D            The workspace root (default: the current directory)
  --strict           Refuse on a suspected secret instead of warning
  -h, --help         Show this help
`,
  async run(argv, io) {
    const [sub, ...rest] = argv
    if (sub === '-h' || sub === '--help') {
      io.stdout(progress.usage)
      return EXIT.OK
    }
    if (sub === 'list') return listProgress(rest, io)
    if (sub !== 'add') throw new UsageError(progress, sub === undefined ? '"progress" needs "add" or "list"' : `unknown command "progress ${sub}"`)
    const { values, positionals } = parse(progress, rest, ENTRY_FLAGS)
    if (values.help) {
      io.stdout(progress.usage)
      return EXIT.OK
    }
    if (positionals.length > 0) throw new UsageError(progress, `unexpected argument "${positionals[0]}"`)
    if (!values.task) throw new UsageError(progress, 'progress add needs --task ID')
    if (values.status !== undefined && !(PROGRESS_STATUSES as readonly string[]).includes(values.status)) {
      throw new UsageError(progress, `--status must be one of ${PROGRESS_STATUSES.join(', ')}, got "${values.status}"`)
    }
    const fields = ['evidence', 'verification', 'command', 'test', 'link', 'commit', 'notes', 'timestamp'] as const
    const input: Record<string, string> = { task_id: values.task }
    if (values.status) input['status'] = values.status
    for (const f of fields) if (values[f] !== undefined) input[f] = values[f]!
    if (values['replay-id'] !== undefined) input['replayId'] = values['replay-id']
    try {
      const { entry, warnings } = await appendProgressEntry(dirOf(values), input as { task_id: string; status?: ProgressStatus }, { strict: values.strict })
      io.stdout(`appended progress: ${entry.task_id}${entry.status ? ` ${entry.status}` : ''} at ${entry.timestamp}\n`)
      printWarnings(warnings, io)
      return EXIT.OK
    } catch (err) {
      return fail(err, io)
    }
  },
}

async function listProgress(argv: readonly string[], io: CliIO): Promise<number> {
  const { values } = parse(progress, argv, { dir: COMMON.dir, help: COMMON.help })
  if (values.help) {
    io.stdout(progress.usage)
    return EXIT.OK
  }
  const data = await loadDoc(dirOf(values), 'progress', io)
  if (data === null) return EXIT.FAILURE
  if (data === undefined) return EXIT.USAGE
  for (const e of list((data as { entries?: unknown }).entries)) {
    const entry = e as Record<string, unknown>
    io.stdout(`${String(entry['timestamp'] ?? '-')}  ${String(entry['task_id'])}  ${String(entry['status'] ?? '')}  ${String(entry['evidence'] ?? entry['command'] ?? entry['test'] ?? entry['commit'] ?? entry['link'] ?? '')}\n`)
  }
  return EXIT.OK
}

export const plan: Command = {
  name: 'plan',
  summary: 'Show the plan with each task\'s status (show), add a task (add), or set a task\'s status (set)',
  usage: `Usage: memweave small plan [show] [--dir D]
       memweave small plan add --id ID --title T [--status S] [--dir D]
       memweave small plan set --id ID --status S [--dir D]

The plan is agent-owned and disposable: tasks may be added and changed at any time. "show"
lists each task with its status now (its latest progress entry's, else the plan's own).

Options:
  --id ID      The task id
  --title T    The task title
  --status S   ${PROGRESS_STATUSES.join(', ')}
  --dir D      The workspace root (default: the current directory)
  -h, --help   Show this help
`,
  async run(argv, io) {
    const [first, ...rest] = argv
    if (first === '-h' || first === '--help') {
      io.stdout(plan.usage)
      return EXIT.OK
    }
    const sub = first === undefined || first.startsWith('-') ? 'show' : first
    const args = sub === first ? rest : argv
    const { values, positionals } = parse(plan, args, { ...COMMON, id: { type: 'string' }, title: { type: 'string' }, status: { type: 'string' } })
    if (values.help) {
      io.stdout(plan.usage)
      return EXIT.OK
    }
    if (positionals.length > 0) throw new UsageError(plan, `unexpected argument "${positionals[0]}"`)
    const dir = dirOf(values)
    if (sub === 'show') {
      const data = await loadDoc(dir, 'plan', io)
      if (data === null) return EXIT.FAILURE
      if (data === undefined) return EXIT.USAGE
      const progressData = await loadDoc(dir, 'progress', io).catch(() => null)
      for (const t of taskStatuses(data, progressData ?? undefined)) io.stdout(`${t.id}  ${t.status}  ${t.title}\n`)
      return EXIT.OK
    }
    if (sub !== 'add' && sub !== 'set') throw new UsageError(plan, `unknown command "plan ${sub}"`)
    if (!values.id) throw new UsageError(plan, `plan ${sub} needs --id ID`)
    if (values.status !== undefined && !(PROGRESS_STATUSES as readonly string[]).includes(values.status)) {
      throw new UsageError(plan, `--status must be one of ${PROGRESS_STATUSES.join(', ')}, got "${values.status}"`)
    }
    const data = await loadDoc(dir, 'plan', io)
    if (data === null) return EXIT.FAILURE
    if (data === undefined) return EXIT.USAGE
    const tasks = list((data as { tasks?: unknown }).tasks) as PlanTask[]
    let next: PlanTask[]
    if (sub === 'add') {
      if (!values.title) throw new UsageError(plan, 'plan add needs --title T')
      if (tasks.some((t) => t.id === values.id)) {
        io.stderr(`memweave small: the plan already has a task "${values.id}"\n`)
        return EXIT.FAILURE
      }
      next = [...tasks, { id: values.id, title: values.title, ...(values.status ? { status: values.status } : {}) }]
    } else {
      if (!values.status) throw new UsageError(plan, 'plan set needs --status S')
      if (!tasks.some((t) => t.id === values.id)) {
        io.stderr(`memweave small: the plan has no task "${values.id}"\n`)
        return EXIT.FAILURE
      }
      next = tasks.map((t) => (t.id === values.id ? { ...t, status: values.status } : t))
    }
    try {
      await writeDocument(dir, 'plan', { ...(data as object), tasks: next }, { strict: values.strict })
      io.stdout(`${sub === 'add' ? 'added' : 'updated'} task ${values.id} in .small/plan.small.yml\n`)
      return EXIT.OK
    } catch (err) {
      return fail(err, io)
    }
  },
}
