import { readFile, writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { isMemweaveError } from '../core/errors.js'
import { AGENTS_MD_MODES, applyHarnessBlock, defaultHarnessContent, findHarnessBlock, type AgentsMdMode } from '../small/agents-md.js'
import { SMALL_VERSION } from '../small/layout.js'
import { initWorkspace, regenerateHandoff } from '../node/small-workspace-dir.js'
import { EXIT, UsageError, commandGroup, type Command } from './command.js'
import { checkCommand } from './small-check.js'
import { plan, progress } from './small-edit.js'
import { COMMON, dirOf, fail, parse } from './small-io.js'

/**
 * `memweave small ...`: SMALL v1.0.0 project state in a `.small/` folder (specs/SMALL.md).
 * Exit codes: 0 done (or valid), 1 invalid or refused (a finding, an ownership or append-only
 * violation), 2 usage or system error (a directory that cannot be read). Malformed YAML makes a
 * workspace invalid (1); it is not a crash.
 */
const init: Command = {
  name: 'init',
  summary: 'Create .small/ with a valid starting document for each missing file',
  usage: `Usage: memweave small init [--dir D] [--intent TEXT]

Creates .small/ in D with intent, constraints, plan, progress (a meta/init entry), workspace and
handoff documents. Files that exist are left alone. The person running init scaffolds the
human-owned documents (intent, constraints); edit them to say what the project is for.

Options:
  --dir D        The workspace root (default: the current directory; created if missing)
  --intent TEXT  The project's intent, written into intent.small.yml
  -h, --help     Show this help
`,
  async run(argv, io) {
    const { values, positionals } = parse(init, argv, { dir: COMMON.dir, help: COMMON.help, intent: { type: 'string' } })
    if (values.help) {
      io.stdout(init.usage)
      return EXIT.OK
    }
    if (positionals.length > 0) throw new UsageError(init, `unexpected argument "${positionals[0]}"`)
    const dir = dirOf(values)
    try {
      const created = await initWorkspace(dir, { intent: values.intent })
      io.stdout(created.length ? created.map((f) => `created ${f}\n`).join('') : `nothing to do: ${dir}/.small/ already has every document\n`)
      return EXIT.OK
    } catch (err) {
      return fail(err, io)
    }
  },
}

const handoff: Command = {
  name: 'handoff',
  summary: 'Regenerate the handoff (the resume entrypoint) from plan and progress, with its replayId',
  usage: `Usage: memweave small handoff [--dir D] [--summary S] [--replay-id HEX] [--next-steps N] [--strict]

Rewrites .small/handoff.small.yml: the current task (first in progress, else pending, else
blocked), next steps, a summary naming the latest progress, the links of the previous handoff, and
the replayId: the workspace's run.replay_id if set, else sha256(intent + "\\n" + plan [+ "\\n" +
constraints]) with line endings normalised (source: auto), or --replay-id (source: manual).

Options:
  --dir D           The workspace root (default: the current directory)
  --summary S       The summary to write (default: computed)
  --replay-id HEX   A manual replayId: 64 hexadecimal digits
  --next-steps N    How many next steps to list (default 5)
  --strict          Refuse on a suspected secret instead of warning
  -h, --help        Show this help
`,
  async run(argv, io) {
    const { values, positionals } = parse(handoff, argv, { ...COMMON, summary: { type: 'string' }, 'replay-id': { type: 'string' }, 'next-steps': { type: 'string' } })
    if (values.help) {
      io.stdout(handoff.usage)
      return EXIT.OK
    }
    if (positionals.length > 0) throw new UsageError(handoff, `unexpected argument "${positionals[0]}"`)
    const steps = values['next-steps']
    if (steps !== undefined && !/^\d{1,3}$/.test(steps)) throw new UsageError(handoff, `--next-steps must be a number, got "${steps}"`)
    try {
      const { handoff: doc, changed } = await regenerateHandoff(dirOf(values), {
        summary: values.summary, replayId: values['replay-id'], nextSteps: steps === undefined ? undefined : Number(steps), strict: values.strict,
      })
      io.stdout(`${changed ? 'wrote' : 'unchanged'} .small/handoff.small.yml: current task ${doc.resume.current_task_id ?? '(none)'}, replayId ${doc.replayId.value} (${doc.replayId.source})\n`)
      return EXIT.OK
    } catch (err) {
      return fail(err, io)
    }
  },
}


const agentsMd: Command = {
  name: 'agents-md',
  summary: 'Write the SMALL harness block into AGENTS.md (append, prepend, overwrite; replaced in place)',
  usage: `Usage: memweave small agents-md [--dir D] [--mode append|prepend|overwrite] [--file F] [--check]

Writes the SMALL harness block (${'<!-- BEGIN SMALL HARNESS v' + SMALL_VERSION + ' -->'} ... END) into AGENTS.md.
An existing block is replaced in place; nothing outside the block changes. A file with two blocks,
or markers of another version, is an error and is left alone.

Options:
  --mode M    append (default): after the existing content; prepend: before it;
              overwrite: the file becomes the block alone
  --file F    The file (default: D/AGENTS.md)
  --check     Only check the file's block: exit 0 when it has exactly one current block
  --dir D     The workspace root (default: the current directory)
  -h, --help  Show this help
`,
  async run(argv, io) {
    const { values, positionals } = parse(agentsMd, argv, { dir: COMMON.dir, help: COMMON.help, mode: { type: 'string' }, file: { type: 'string' }, check: { type: 'boolean' } })
    if (values.help) {
      io.stdout(agentsMd.usage)
      return EXIT.OK
    }
    if (positionals.length > 0) throw new UsageError(agentsMd, `unexpected argument "${positionals[0]}"`)
    const mode = (values.mode ?? 'append') as AgentsMdMode
    if (!(AGENTS_MD_MODES as readonly string[]).includes(mode)) throw new UsageError(agentsMd, `--mode must be one of ${AGENTS_MD_MODES.join(', ')}, got "${values.mode}"`)
    const file = values.file ? resolve(values.file) : resolve(dirOf(values), 'AGENTS.md')
    let existing: string | null
    try {
      existing = await readFile(file, 'utf8')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        io.stderr(`memweave small: cannot read ${file} (${(err as NodeJS.ErrnoException).code})\n`)
        return EXIT.USAGE
      }
      existing = null
    }
    try {
      if (values.check) {
        const block = existing === null ? null : findHarnessBlock(existing)
        io.stdout(block ? `${file}: one SMALL harness block (v${SMALL_VERSION})\n` : `${file}: no SMALL harness block\n`)
        return block ? EXIT.OK : EXIT.FAILURE
      }
      const next = applyHarnessBlock(existing, defaultHarnessContent(), mode)
      if (next === existing) {
        io.stdout(`unchanged ${file}\n`)
        return EXIT.OK
      }
      await writeFile(file, next, 'utf8')
      io.stdout(`wrote the SMALL harness block to ${file}\n`)
      return EXIT.OK
    } catch (err) {
      if (isMemweaveError(err)) {
        io.stderr(`memweave small: ${err.message}\n`)
        return EXIT.FAILURE
      }
      io.stderr(`memweave small: cannot write ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})\n`)
      return EXIT.USAGE
    }
  },
}

/** `memweave small ...`: SMALL project state in `.small/`. */
export const smallCommand: Command = commandGroup(
  'small',
  'SMALL project state in .small/: init, validate, verify, handoff, progress, plan, agents-md',
  [init, checkCommand('validate'), checkCommand('verify'), handoff, progress, plan, agentsMd],
  { description: `SMALL v${SMALL_VERSION} project state (specs/SMALL.md) in a .small/ folder.` },
)
