import { ErrorCode, MemweaveError } from '../core/errors.js'
import type { ArtifactSearchHit, ArtifactSummary, ProvenanceEntry } from '../artifacts/types.js'
import { bodyFrom, fail, number, saved, sub, tagList, view, warnSkipped } from './artifact-sub.js'
import { exportCmd, importCmd, validate } from './artifact-files.js'
import { EXIT, UsageError, commandGroup, type Command } from './command.js'

/**
 * `memweave artifact ...`: SMP knowledge artifacts in a workspace directory (SMP §5.2), files at
 * `<dir>/artifacts/<slug>.md`. Exit codes: 0 success, 1 failure (not found, conflict, invalid
 * content), 2 usage error; `validate` exits 2 on a system error (a path it cannot read).
 * `--json` prints one JSON document on stdout, errors included (`{"error": {...}}`).
 */

// ---- create / commit / merge --------------------------------------------------------------------

const BODY_FLAGS = { body: { type: 'string' }, 'body-file': { type: 'string' } } as const

const create: Command = sub({
  name: 'create',
  options: `  --title T          Title (default: the slug in title case)
  --tags a,b         Tags, comma-separated
  --confidence C     0..1
  -m, --message M    Provenance message
  --body TEXT        Markdown content (written as AWP does: a blank line, TEXT, a newline)
  --body-file F      The exact body, from a file (default: "# <title>")
`,
  summary: 'Create an artifact at version 1',
  args: '<slug> [options]',
  help: 'Writes artifacts/<slug>.md (SMP §4.1). The agent is $MEMWEAVE_AGENT, else the DID in .awp/workspace.json, else "anonymous".',
  flags: {
    title: { type: 'string' }, tags: { type: 'string' }, confidence: { type: 'string' }, message: { type: 'string', short: 'm' }, ...BODY_FLAGS,
    help: { type: 'boolean', short: 'h' },
  },
  positionals: [1, 1],
  async run(ctx) {
    const v = ctx.values
    const [slug] = ctx.positionals as [string]
    const title = v.title ?? undefined
    const body = (await bodyFrom(v, () => create)) ?? `\n# ${title ?? defaultTitle(slug)}\n\n`
    const a = await ctx.workspace().create(slug, {
      title, body, tags: tagList(v.tags), confidence: number(() => create, 'confidence', v.confidence), message: v.message,
    })
    ctx.print(view(a), saved('Created', a))
    return EXIT.OK
  },
})

const defaultTitle = (slug: string): string => slug.replace(/^artifact:/, '').split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ')

const commit: Command = sub({
  name: 'commit',
  options: `  -m, --message M         Provenance message (required)
  --confidence C          0..1; replaces the confidence and is recorded in the entry
  --title T               New title
  --tags a,b              New tags (replace the old ones)
  --body TEXT             New Markdown content (default: the file's body as edited)
  --body-file F           The exact new body, from a file
  --expected-version N    Fail unless the file is at version N
`,
  summary: 'Record a new version of an artifact',
  args: '<slug> --message M [options]',
  help: 'Edit artifacts/<slug>.md first, then commit (SMP §4.2): version + 1, an "updated" provenance entry.',
  flags: {
    message: { type: 'string', short: 'm' }, title: { type: 'string' }, tags: { type: 'string' }, confidence: { type: 'string' },
    'expected-version': { type: 'string' }, ...BODY_FLAGS, help: { type: 'boolean', short: 'h' },
  },
  positionals: [1, 1],
  async run(ctx) {
    const v = ctx.values
    if (v.message === undefined) throw new UsageError(commit, '--message is required: a commit says why')
    const a = await ctx.workspace().commit(ctx.positionals[0]!, {
      message: v.message,
      body: await bodyFrom(v, () => commit),
      title: v.title,
      tags: tagList(v.tags),
      confidence: number(() => commit, 'confidence', v.confidence),
      expectedVersion: number(() => commit, 'expected-version', v['expected-version'], true),
    })
    ctx.print(view(a), saved('Committed', a))
    return EXIT.OK
  },
})

const merge: Command = sub({
  name: 'merge',
  options: `  -m, --message M         Provenance message
  --confidence C          The merged confidence (default: the minimum of both)
  --expected-version N    Fail unless the target is at version N
`,
  summary: 'Merge a source artifact into a target (additive)',
  args: '<target> <source> [options]',
  help: 'SMP §4.6: the source body is appended under a "Merged from" separator; authors and tags are unioned;\nconfidence becomes the minimum unless --confidence is given. The source is not changed.',
  flags: {
    message: { type: 'string', short: 'm' }, confidence: { type: 'string' }, 'expected-version': { type: 'string' }, help: { type: 'boolean', short: 'h' },
  },
  positionals: [2, 2],
  async run(ctx) {
    const v = ctx.values
    const [target, source] = ctx.positionals as [string, string]
    const a = await ctx.workspace().merge(target, source, {
      message: v.message,
      confidence: number(() => merge, 'confidence', v.confidence),
      expectedVersion: number(() => merge, 'expected-version', v['expected-version'], true),
    })
    ctx.print(view(a), `Merged artifact:${source.replace(/^artifact:/, '')} into ${a.path} (now version ${a.version})\n`)
    return EXIT.OK
  },
})

// ---- read / log / list / search -----------------------------------------------------------------

const read: Command = sub({
  name: 'read',
  options: `  --version N   Fail unless the file is at version N
`,
  summary: 'Print an artifact file',
  args: '<slug> [--version N]',
  help: 'A workspace file holds one version; earlier ones are in git (SMP §2.5) or in a store (memweave artifact import).',
  flags: { version: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  positionals: [1, 1],
  async run(ctx) {
    const a = await ctx.workspace().read(ctx.positionals[0]!)
    const wanted = number(() => read, 'version', ctx.values.version, true)
    if (wanted !== undefined && wanted !== a.version) {
      return fail(ctx, new MemweaveError(ErrorCode.NOT_FOUND, `${a.path} is at version ${a.version}; version ${wanted} is in git history, not in the workspace`, { field: 'version' }))
    }
    ctx.print(view(a), a.text)
    return EXIT.OK
  },
})

const log: Command = sub({
  name: 'log',
  options: '',
  summary: 'Show an artifact\'s provenance, newest first',
  args: '<slug>',
  help: '',
  flags: { help: { type: 'boolean', short: 'h' } },
  positionals: [1, 1],
  async run(ctx) {
    const a = await ctx.workspace().read(ctx.positionals[0]!)
    const fm = a.frontmatter
    const conf = fm.confidence === undefined ? '' : `, confidence ${fm.confidence}`
    const lines = [...fm.provenance].map((e: ProvenanceEntry, i) => {
      const c = e.confidence === undefined ? '' : `  (${e.confidence})`
      return `  #${i + 1}  ${e.timestamp}  ${e.agent}  ${e.action}${e.message === undefined ? '' : `  "${e.message}"`}${c}`
    }).reverse()
    ctx.print({ slug: a.slug, title: fm.title, version: a.version, provenance: fm.provenance }, `${fm.title} (version ${a.version}${conf})\n\n${lines.join('\n')}\n`)
    return EXIT.OK
  },
})

function table(rows: readonly ArtifactSummary[]): string {
  if (rows.length === 0) return 'No artifacts found.\n'
  const slugW = Math.max(4, ...rows.map((r) => r.slug.length)) + 2
  const titleW = 38
  const clip = (t: string): string => (t.length > titleW - 2 ? `${t.slice(0, titleW - 4)}..` : t)
  const head = `${'SLUG'.padEnd(slugW)}${'TITLE'.padEnd(titleW)}${'V'.padEnd(5)}${'CONF'.padEnd(6)}TAGS`
  const body = rows.map((r) =>
    `${r.slug.padEnd(slugW)}${clip(r.title).padEnd(titleW)}${String(r.version).padEnd(5)}${(r.confidence === null ? '-' : r.confidence.toFixed(2)).padEnd(6)}${r.tags.join(', ')}`,
  )
  return `${[head, ...body].join('\n')}\n`
}

const list: Command = sub({
  name: 'list',
  options: `  --tag T       Only artifacts with this tag (case-insensitive)
`,
  summary: 'List the workspace\'s artifacts',
  args: '[--tag T]',
  help: '',
  flags: { tag: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  positionals: [0, 0],
  async run(ctx) {
    const { artifacts, skipped } = await ctx.workspace().list({ tag: ctx.values.tag })
    warnSkipped(ctx, skipped)
    ctx.print({ artifacts, skipped }, table(artifacts))
    return EXIT.OK
  },
})

function hits(results: readonly ArtifactSearchHit[], query: string): string {
  if (results.length === 0) return `No artifacts matching "${query}".\n`
  const out = results.map((r) => {
    const conf = r.confidence === null ? '' : ` (confidence: ${r.confidence})`
    return `${r.slug}: ${r.title} [v${r.version}]${conf}  score ${r.score}${r.snippet && !r.matchedIn.includes('title') ? `\n  ${r.snippet}` : ''}`
  })
  return `${out.join('\n')}\n\n${results.length} matching artifact(s).\n`
}

const search: Command = sub({
  name: 'search',
  options: `  --limit N     At most N results
`,
  summary: 'Search titles, tags and bodies (case-insensitive, ranked)',
  args: '<query> [--limit N]',
  help: '',
  flags: { limit: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  positionals: [1, 1],
  async run(ctx) {
    const query = ctx.positionals[0]!
    const { results, skipped } = await ctx.workspace().search(query, { limit: number(() => search, 'limit', ctx.values.limit, true) })
    warnSkipped(ctx, skipped)
    ctx.print({ query, results, skipped }, hits(results, query))
    return EXIT.OK
  },
})

export const artifactCommand: Command = commandGroup('artifact', 'SMP knowledge artifacts in a workspace (artifacts/<slug>.md)', [
  create, commit, log, list, search, merge, read, validate, importCmd, exportCmd,
])
