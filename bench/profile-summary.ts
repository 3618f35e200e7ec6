/**
 * Where a CPU profile's time goes (CDP `Profiler.stop`'s profile, or a `.cpuprofile` file): the
 * share of samples whose stack holds each function (inclusive), and the functions of most self
 * time. Used by bench/heap-probe.ts (`--cpu-of retrieve`); from the command line:
 *
 *   npx tsx bench/profile-summary.ts FILE.cpuprofile [top=25] [name,name,...]
 */
export interface CpuProfile {
  readonly nodes: ReadonlyArray<{
    readonly id: number
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
    readonly children?: readonly number[]
  }>
  readonly samples?: readonly number[]
}

/** The functions a retrieve's time is split by, outermost first (names as V8 reports them). */
export const RETRIEVE_STEPS = [
  'retrieve',
  'rank',
  'matchLive',
  'selection',
  'pack',
  'toMemory',
  'structuredClone',
  'conflictsWith',
  'formatStoredTime',
  'hexBytes',
  '(garbage collector)',
  '(program)',
  '(idle)',
] as const

const label = (f: CpuProfile['nodes'][number]['callFrame']): string =>
  `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/').split('?')[0]}:${f.lineNumber + 1}`

/**
 * Lines: for each of `names`, the share of samples with that function on the stack (a recursive
 * or repeated frame counts once a sample); then the `top` functions by self time.
 */
export function summarizeProfile(profile: CpuProfile, top: number, names: readonly string[] = RETRIEVE_STEPS): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const samples = profile.samples ?? []
  const inclusive = new Map<string, number>(names.map((n) => [n, 0]))
  const self = new Map<string, number>()
  // Each node's set of wanted names on its stack, computed once per node, not per sample.
  const stackNames = new Map<number, readonly string[]>()
  const namesOf = (id: number): readonly string[] => {
    const known = stackNames.get(id)
    if (known) return known
    const found = new Set<string>()
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const fn = byId.get(at)!.callFrame.functionName
      if (inclusive.has(fn)) found.add(fn)
    }
    const list = [...found]
    stackNames.set(id, list)
    return list
  }
  for (const id of samples) {
    for (const n of namesOf(id)) inclusive.set(n, inclusive.get(n)! + 1)
    const key = label(byId.get(id)!.callFrame)
    self.set(key, (self.get(key) ?? 0) + 1)
  }
  const pct = (c: number): string => ((100 * c) / Math.max(1, samples.length)).toFixed(1).padStart(5)
  return [
    `${samples.length} samples; share with the function on the stack:`,
    ...names.map((n) => `  ${pct(inclusive.get(n)!)}% ${n}`),
    'self time:',
    ...[...self].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, c]) => `  ${pct(c)}% ${k}`),
  ].join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { readFileSync } = await import('node:fs')
  const [file, top = '25', names] = process.argv.slice(2)
  if (!file) throw new Error('usage: profile-summary.ts FILE.cpuprofile [top] [name,name,...]')
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile
  console.log(summarizeProfile(profile, Number(top), names ? names.split(',') : RETRIEVE_STEPS))
}
