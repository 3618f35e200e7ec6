import { SMALL_VERSION } from '../small/layout.js'
import { formatFinding } from '../small/findings.js'
import { validateDir } from '../node/small-workspace-dir.js'
import { EXIT, UsageError, type Command } from './command.js'
import { COMMON, dirOf, fail, parse } from './small-io.js'

/** `memweave small validate` and `memweave small verify`: exit 0 valid, 1 invalid, 2 system error. */
export function checkCommand(name: 'validate' | 'verify'): Command {
  const verify = name === 'verify'
  const flags = { ...COMMON, json: { type: 'boolean' } } as const
  const cmd: Command = {
    name,
    summary: verify
      ? 'Validate, then check progress history against the last known state and that the replayId reproduces'
      : 'Check every document: YAML, JSON Schema and the SMALL invariants',
    usage: `Usage: memweave small ${name} [--dir D] [--strict] [--json]

${verify
      ? `Does what "validate" does, then checks that no earlier progress entry was edited or removed since
memweave last saw it (.small-cache/progress-ledger.json) and that an automatic replayId still
reproduces from intent, plan and constraints (a mismatch is a warning).`
      : `Checks the five canonical documents and workspace.small.yml: YAML, the JSON Schemas of
SMALL v${SMALL_VERSION}, small_version, evidence on every progress entry, strictly increasing
timestamps, and suspected secrets (a warning; an error with --strict).`}

Options:
  --dir D     The workspace root, the folder that holds .small/ (default: the current directory)
  --strict    Also: only canonical files under .small/ (extensions in .small/ext/), completed or
              blocked tasks have evidence, progress names plan tasks, the handoff's task is planned
  --json      Print the report as JSON
  -h, --help  Show this help

Exit status: 0 valid, 1 invalid (malformed YAML included), 2 the directory cannot be read.
`,
    async run(argv, io) {
      const { values, positionals } = parse(cmd, argv, flags)
      if (values.help) {
        io.stdout(cmd.usage)
        return EXIT.OK
      }
      if (positionals.length > 0) throw new UsageError(cmd, `unexpected argument "${positionals[0]}"`)
      const dir = dirOf(values)
      let result
      try {
        result = await validateDir(dir, { strict: values.strict, verify })
      } catch (err) {
        return fail(err, io)
      }
      const { report, replay } = result
      if (values.json) {
        io.stdout(`${JSON.stringify({ dir, valid: report.valid, strict: !!values.strict, errors: report.errors, warnings: report.warnings, replay }, null, 2)}\n`)
      } else {
        for (const f of [...report.errors, ...report.warnings]) io.stdout(`${formatFinding(f)}\n`)
        if (verify && replay) {
          io.stdout(replay.source === 'manual'
            ? `replayId ${replay.stored} (manual)\n`
            : replay.reproduces
              ? `replayId ${replay.stored} (auto) reproduces\n`
              : `replayId ${replay.stored} (auto) does not reproduce; expected ${replay.expected}\n`)
        }
        const counts = `${report.errors.length} error${report.errors.length === 1 ? '' : 's'}, ${report.warnings.length} warning${report.warnings.length === 1 ? '' : 's'}`
        io.stdout(`${report.valid ? 'valid' : 'invalid'}: ${dir} (SMALL v${SMALL_VERSION}${values.strict ? ', strict' : ''}): ${counts}\n`)
      }
      return report.valid ? EXIT.OK : EXIT.FAILURE
    },
  }
  return cmd
}

