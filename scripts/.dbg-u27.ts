import { readText } from '../src/conflict/read/reading.js'
import { leadingDays, qualifiedDays } from '../src/conflict/judge/attachment.js'
for (const t of process.argv.slice(2)) { const r = readText(t); console.log(t, r.norm); for (const [sl, at] of r.slots.at) console.log(' ', sl.kind, JSON.stringify(sl.text), at, qualifiedDays(r, at), leadingDays(r, at)) }
