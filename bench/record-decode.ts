import * as Y from 'yjs'
import { createIdentity } from '../src/core/identity.js'
import type { PoolId } from '../src/pools/types.js'
import { memoryInputs, memoryRecords, recordValues } from './sync-fixtures.js'

/**
 * What a pool document's values cost Yjs to decode (issue 31, strings32): N signed pool records
 * (the sync bench's) in one Y.Map as plain objects (ContentAny, read field by field) and as JSON
 * strings, each applied into a new Y.Doc and read back; the strings once as they are (plain Yjs's
 * floor) and once parsed, which a replica must do to check a record. Process CPU, median of five,
 * alternating. `npx tsx bench/record-decode.ts [N]`.
 */

const n = Number(process.argv[2] ?? 20000)
const owner = await createIdentity({ seed: new Uint8Array(32).fill(21) })
const values = recordValues(await memoryRecords(owner, 'a'.repeat(32) as PoolId, memoryInputs(n)))
const build = (asString: boolean): Uint8Array => {
  const d = new Y.Doc()
  const m = d.getMap('records')
  d.transact(() => { for (const v of values) m.set(v.id, asString ? JSON.stringify(v) : v) })
  return Y.encodeStateAsUpdate(d)
}
const objects = build(false)
const strings = build(true)
const cpu = (f: () => void): number => { const c = process.cpuUsage(); f(); const u = process.cpuUsage(c); return (u.user + u.system) / 1000 }
const res: Record<string, number[]> = { objects: [], strings: [], 'strings+parse': [] }
for (let r = 0; r < 5; r++) {
  res['objects']!.push(cpu(() => { const d = new Y.Doc(); Y.applyUpdate(d, objects); let k = 0; for (const v of d.getMap('records').values()) k += (v as { id: string }).id.length }))
  res['strings']!.push(cpu(() => { const d = new Y.Doc(); Y.applyUpdate(d, strings); let k = 0; for (const v of d.getMap('records').values()) k += (v as string).length }))
  res['strings+parse']!.push(cpu(() => { const d = new Y.Doc(); Y.applyUpdate(d, strings); let k = 0; for (const v of d.getMap('records').values()) k += (JSON.parse(v as string) as { id: string }).id.length }))
}
for (const [k, v] of Object.entries(res)) { const s = [...v].sort((a, b) => a - b); console.log(`${n} ${k}: median ${s[2]!.toFixed(0)} ms CPU (${v.map((x) => x.toFixed(0)).join(' / ')}), ${(1000 * s[2]! / n).toFixed(1)} µs a record`) }
console.log(`update bytes: objects ${objects.byteLength}, strings ${strings.byteLength}`)
