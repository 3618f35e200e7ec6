import { TextConflictDetector } from '../src/conflict/judge/text-detector.js'
const d = new TextConflictDetector()
const pairs: Array<[string, string]> = JSON.parse(process.argv[2] ?? '[]')
for (const [a, b] of pairs) { const v = d.judge(a, b); const w = d.judge(b, a); console.log(v.conflict ? 'FLAG' : 'ok  ', w.conflict ? 'FLAG' : 'ok  ', v.confidence.toFixed(2), v.reason, '|', a, '/', b) }
