import { execFile } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, test } from 'vitest'

/**
 * The docs as an npm user meets them (issue 29, item 5): on the npm page and in node_modules, not in
 * this repository. Every relative link of the README and docs/*.md must name a file the packed
 * tarball holds (npm's page resolves relative links through `repository`; node_modules has what
 * `files` ships), every web page the README or the repository gives declares its charset, and
 * every package a README example imports is memweave's own or one the README says to install.
 */

const root = new URL('../..', import.meta.url).pathname
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>
const readme = readFileSync(join(root, 'README.md'), 'utf8')
const docs = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]

/** Markdown with fenced blocks and code spans blanked out: `[x](y)` in an example is not a link. */
function prose(markdown: string): string {
  return markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '')
}

/** Every link target of a Markdown file: inline `[text](target)`, images, reference definitions, HTML href/src. */
export function linkTargets(markdown: string): string[] {
  const text = prose(markdown)
  const out: string[] = []
  for (const m of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push(m[1]!)
  for (const m of text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) out.push(m[1]!)
  for (const m of text.matchAll(/\b(?:href|src)="([^"]+)"/g)) out.push(m[1]!)
  return out
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
function anchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')
}

function anchors(markdown: string): Set<string> {
  return new Set([...markdown.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => anchor(m[1]!.replace(/`/g, ''))))
}

let packed: Set<string>

beforeAll(async () => {
  // What `npm publish` would ship, without building (the file list is what matters here).
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, maxBuffer: 64 * 1024 * 1024 })
  packed = new Set((JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path))
}, 120_000)

describe('docs that reach npm users', () => {
  test('package.json names the repository, homepage and issue tracker (npm resolves the README\'s relative links through repository)', () => {
    expect(pkg['repository']).toEqual({ type: 'git', url: 'git+https://github.com/memweave/memweave.git' })
    expect(pkg['homepage']).toBe('https://github.com/memweave/memweave#readme')
    expect(pkg['bugs']).toEqual({ url: 'https://github.com/memweave/memweave/issues' })
  })

  test('the tarball ships the README, the docs it links to and the changelog', () => {
    for (const file of docs) expect(packed, file).toContain(file)
    expect(packed).toContain('CHANGELOG.md')
  })

  test.each(docs)('every relative link of %s resolves to a file in the packed tarball, or is absolute', (file) => {
    const markdown = readFileSync(join(root, file), 'utf8')
    const targets = linkTargets(markdown)
    const broken: string[] = []
    for (const target of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue // https:, mailto:
      const [path, fragment] = target.split('#') as [string, string | undefined]
      if (path === '') {
        if (!anchors(markdown).has(fragment ?? '')) broken.push(`${target} (no such heading)`)
        continue
      }
      const resolved = relative(root, normalize(join(root, dirname(file), decodeURIComponent(path))))
      if (!packed.has(resolved)) broken.push(`${target} (${resolved} is not in the tarball)`)
      else if (fragment && resolved.endsWith('.md') && !anchors(readFileSync(join(root, resolved), 'utf8')).has(fragment)) broken.push(`${target} (no such heading)`)
    }
    expect(broken).toEqual([])
  })

  test('the link finder finds what it must (and not what an example holds)', () => {
    const found = linkTargets('See [a](docs/a.md) and ![i](img.png "t").\n[ref]: ../x.md\n<a href="y.md">y</a> `[no](no.md)`\n```md\n[no](no2.md)\n```\n')
    expect(found).toEqual(['docs/a.md', 'img.png', '../x.md', 'y.md'])
  })

  test('the specifications the README names are said to be outside the package, not linked to files it lacks', () => {
    expect(prose(readme)).not.toMatch(/\]\(\.\.\/shared\//)
    expect(readme).toMatch(/## Specifications/)
  })
})

describe('web pages declare their charset (issue 29: "thinking…" was mojibake under vite preview)', () => {
  /** The README's HTML files (fenced blocks whose first line names one) and every .html under demo/, e2e/ and examples/. */
  const pages: Array<[string, string]> = [
    ...[...readme.matchAll(/```html\n(<!-- ([\w./-]+\.html) -->\n[\s\S]*?)```/g)].map((m) => [`README.md: ${m[2]!}`, m[1]!] as [string, string]),
    ...['demo', 'e2e', 'examples'].flatMap((dir) => {
      try {
        return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
          .filter((f) => f.endsWith('.html') && !f.split('/').some((part) => part === 'dist' || part === 'node_modules'))
          .map((f) => [`${dir}/${f}`, readFileSync(join(root, dir, f), 'utf8')] as [string, string])
      } catch {
        return [] // no such directory
      }
    }),
  ]

  test('there are pages to check: the README\'s and the demo\'s', () => {
    expect(pages.map(([name]) => name)).toEqual(expect.arrayContaining(['README.md: index.html', 'README.md: agent.html', 'demo/index.html']))
  })

  test.each(pages)('%s has <meta charset="utf-8"> before anything else that has text', (_name, html) => {
    const meta = html.search(/<meta charset="utf-8"\s*\/?>/i)
    expect(meta).toBeGreaterThanOrEqual(0)
    // The HTML spec wants it within the first 1024 bytes, before any text the parser must decode.
    expect(Buffer.byteLength(html.slice(0, meta))).toBeLessThan(1024)
    expect(html.slice(0, meta)).not.toMatch(/<(title|p|ul|script|body)\b/i)
  })
})

describe('README examples import only what the README says to install (issue 29: pnpm gives no hoisted packages)', () => {
  const installed = new Set([...readme.matchAll(/npm install((?:[ \n]+[-@\w./]+)+)/g)].flatMap((m) => m[1]!.trim().split(/\s+/).filter((w) => !w.startsWith('-'))))
  const blocks = [...readme.matchAll(/```(?:ts|js)\n([\s\S]*?)```/g)].map((m) => m[1]!)
  const imported = [...new Set(blocks.flatMap((code) => [...code.matchAll(/(?:^|\n)\s*import\s[^'"]*?from\s+'([^']+)'|import\('([^']+)'\)/g)].map((m) => (m[1] ?? m[2])!)))]
  /** `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
  const packageOf = (specifier: string): string => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/')
  const bare = imported.filter((s) => !s.startsWith('.') && !s.startsWith('node:') && packageOf(s) !== 'memweave')

  test('the examples import packages besides memweave and Node\'s own', () => {
    expect(bare).toEqual(expect.arrayContaining(['ws', 'yjs', 'y-websocket', 'ai']))
  })

  test.each(bare)('%s is named in an `npm install` the README gives', (specifier) => {
    expect([...installed]).toContain(packageOf(specifier))
  })
})
