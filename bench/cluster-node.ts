import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector'
import { createInterface } from 'node:readline'
import { createRelay } from '../src/relay/relay.js'

/**
 * One relay process for the cluster bench (bench/cluster-bench.ts): `node --expose-gc --import tsx
 * bench/cluster-node.ts <redis URL | -> <node id>`. Like `memweave relay [--redis]`, plus a
 * connection rate limit high enough for thousands of clients from one loopback address, a `gc`
 * line on stdin that answers with the heap after a full collection (memory per pool), and a `cpu`
 * line that answers with the process's CPU time so far in µs (CPU per update; no collection forced),
 * a `switches` line that answers with its voluntary and involuntary context switches so far,
 * and `profile-start` / `profile-stop <file>` lines that record a V8 CPU profile of the node between
 * them (the update phase only, without the start-up) into `<file>`, answering `profiled` when written.
 */
const [redis, nodeId] = process.argv.slice(2)
const relay = createRelay({
  port: 0,
  redis: redis === '-' ? null : redis!,
  ...(redis === '-' ? {} : { nodeId: nodeId! }),
  limits: { connectionsPerWindow: 1_000_000 },
  onError: (err) => process.stderr.write(`relay ${nodeId}: ${String(err)}\n`),
})
const { url } = await relay.listen()
process.stdout.write(`listening ${url}\n`)
let profiler: Session | null = null
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === 'profile-start') {
    profiler = new Session()
    profiler.connect()
    profiler.post('Profiler.enable', () => profiler!.post('Profiler.start', () => process.stdout.write('profiling\n')))
    return
  }
  if (line.startsWith('profile-stop ')) {
    const file = line.slice('profile-stop '.length).trim()
    profiler?.post('Profiler.stop', (err, result) => {
      if (!err) writeFileSync(file, JSON.stringify(result.profile))
      profiler?.disconnect()
      profiler = null
      process.stdout.write('profiled\n')
    })
    return
  }
  if (line.trim() === 'switches') {
    // Context switches so far: voluntary (waiting for I/O) and involuntary (preempted: CPU shared).
    const { voluntaryContextSwitches, involuntaryContextSwitches } = process.resourceUsage()
    return void process.stdout.write(`switches ${voluntaryContextSwitches} ${involuntaryContextSwitches}\n`)
  }
  if (line.trim() === 'cpu') {
    const { user, system } = process.cpuUsage()
    return void process.stdout.write(`cpu ${user + system}\n`)
  }
  if (line.trim() !== 'gc') return
  for (let i = 0; i < 3; i++) (globalThis as { gc?: () => void }).gc?.()
  process.stdout.write(`mem ${JSON.stringify(process.memoryUsage())}\n`)
})
process.on('SIGTERM', () => {
  void relay.close().finally(() => process.exit(0))
})
