import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Identity } from '../../src/core/identity.js'
import { SHARED_DIR } from '../helpers/shared-path.js'

export const SMP_DIR = join(SHARED_DIR, 'specs', 'smp')
export const FIXTURES_DIR = join(SMP_DIR, 'fixtures')

/** The seven artifact files AWP's tool wrote (repo-artifacts) or ships as templates (templates-clawd). */
export function fixtures(): Array<{ name: string; slug: string; path: string; text: string }> {
  const out = []
  for (const dir of ['repo-artifacts', 'templates-clawd']) {
    for (const file of readdirSync(join(FIXTURES_DIR, dir)).sort()) {
      const path = join(FIXTURES_DIR, dir, file)
      out.push({ name: `${dir}/${file}`, slug: file.replace(/\.md$/, ''), path, text: readFileSync(path, 'utf8') })
    }
  }
  return out
}

export const fixture = (name: string): string => readFileSync(join(FIXTURES_DIR, name), 'utf8')

/** The DID of the agent that wrote the repo-artifacts fixtures. */
export const FIXTURE_DID = 'did:key:z6Mkq5UdbbWW6NGyzJmEZiUNBkz3NWbi3dFuSMqmjsKntg9c'

/**
 * An identity with a given DID and no key: the artifact store only reads `did`. It lets tests
 * act as the agents of the spec's examples (`did:key:z6MkAgent1` is not a real key).
 */
export function agent(did: string): Identity {
  return { did, publicKey: new Uint8Array(32), sign: async () => new Uint8Array(64) } as unknown as Identity
}

/** A wall clock the test sets: `clock.set('2026-02-01T09:00:00Z')`. */
export function scriptedClock(start = '2026-01-01T00:00:00Z'): { now: () => number; set: (iso: string) => void } {
  let t = Date.parse(start)
  return {
    now: () => t,
    set: (iso) => {
      t = Date.parse(iso)
    },
  }
}

/**
 * Version 1 of shared/specs/smp/fixtures/repo-artifacts/mcp-coverage-findings.md, before its
 * additive merge: the merged file minus the merge (separator and source body, the `merged`
 * provenance entry, the source's tag, the bumped version and lastModified). Its confidence
 * stays 0.7: the minimum of 0.7 and the source's 0.8 is what the merge recorded.
 */
export function findingsV1(): string {
  const merged = fixture('repo-artifacts/mcp-coverage-findings.md')
  let v1 = merged.slice(0, merged.indexOf('\n---\n*Merged from'))
  v1 = v1
    .replace('version: 2', 'version: 1')
    .replace('  - init-cli\n', '')
    .replace("lastModified: '2026-05-12T16:55:12.180Z'", "lastModified: '2026-05-12T16:54:56.947Z'")
    .replace(/ {2}- agent: [^\n]+\n {4}action: merged\n[\s\S]*?confidence: 0\.7\n/, '')
  return v1
}

/** SMP.md Appendix B "Research Artifact with Provenance": its frontmatter YAML. */
export function specWorkedExample(): string {
  const spec = readFileSync(join(SHARED_DIR, 'specs', 'SMP.md'), 'utf8')
  const section = spec.slice(spec.indexOf('### Research Artifact with Provenance'))
  const block = /```yaml\n---\n([\s\S]*?)---\n/.exec(section)
  if (!block) throw new Error('SMP.md: the worked example is missing')
  return block[1]!
}
