import { hostname } from 'node:os'
import { createRelay } from '../relay/relay.js'
import { describeError } from './describe-error.js'
import { describeListenError } from './listen-error.js'
import { isMemweaveError } from '../core/errors.js'
import { describeRedisTarget, parseRedisTarget, type RedisTarget } from '../relay/redis/target.js'
import { EXIT, WEB_FLAGS, listFlag, parseCommandFlags, portFlag, type Command } from './command.js'

const FLAGS = {
  host: { type: 'string' },
  port: { type: 'string' },
  dir: { type: 'string' },
  'require-owner-proof': { type: 'boolean' },
  redis: { type: 'string' },
  'node-id': { type: 'string' },
  'pins-dir': { type: 'string' },
  'compact-sweep-ms': { type: 'string' },
  'redis-wait-replicas': { type: 'string' },
  'connections-per-minute': { type: 'string' },
  ...WEB_FLAGS,
  help: { type: 'boolean', short: 'h' },
} as const

/** `memweave relay`: the y-websocket relay for memweave pools (src/relay/, docs/relay.md). */
export const relayCommand: Command = {
  name: 'relay',
  summary: 'Relay pools between devices over websockets (y-websocket) until SIGINT or SIGTERM',
  usage: `Usage: memweave relay [--host 127.0.0.1] [--port 7412] [--dir D] [--require-owner-proof]
       memweave relay --redis redis://127.0.0.1:6379 [--node-id ID] [--host H] [--port N]
       memweave relay --redis redis-cluster://10.0.0.1:6379,10.0.0.2:6379 [--redis-wait-replicas 1] ...
       memweave relay --redis redis-sentinel://10.0.0.1:26379,10.0.0.2:26379/mymaster ...

Relays memweave pools between devices: the y-websocket protocol at ws://HOST:PORT/<pool id>,
clients authenticated by a pool token signed by the pool owner (?token=...), read-only members'
writes refused. Runs until SIGINT or SIGTERM, then closes every connection and compacts every pool.

Options:
  --host H                 Interface to bind (default 127.0.0.1: this machine only; any web page
                           you open can still connect, and needs a pool token like anyone)
  --port N                 TCP port; 0 picks a free one (default 7412)
  --dir D                  Keep pools in D, so they survive restarts (default: in memory, gone on exit)
  --require-owner-proof    Admit a new pool only with a token proving its ownership
                           (default: the first valid token's issuer owns it; see docs/relay.md)
  --redis URL              Run as one node of a cluster: pools live in this Redis, shared by every
                           node given the same URL (needs the package ioredis; not with --dir).
                           A Redis Cluster: redis-cluster://[user:pass@]host:port,host:port,...
                           (or redis://host:port,redis://host:port); a Sentinel group:
                           redis-sentinel://[user:pass@]host:port,host:port/MASTER[/DB]
  --redis-wait-replicas N  With --redis: an update counts as stored once N replicas of its Redis
                           hold it (WAIT, 1 s); else the pool's clients reconnect and re-send it
                           (default 0: once the master has it; see docs/relay.md)
  --node-id ID             This node's name in /metrics (default: <hostname>-<pid>)
  --pins-dir D             With --redis: keep this node's copy of every pool's owner pin in D, so a
                           Redis that loses its data gets them back even after this node restarts
                           (default: the copy is in memory)
  --compact-sweep-ms N     With --redis: compact pools no node compacted (their node died) once
                           they had no update for N ms, looking every N ms (default 60000)
  --connections-per-minute N
                           Websocket upgrades accepted per client IP per minute (default 120);
                           raise it behind a load balancer, where every client has its address
  --allow-host H[,H]       /healthz and /metrics also answer to these Host names (a proxy's; *
                           for any); other names are refused (403), as a DNS-rebinding page's are
  --allow-origin O[,O]     Web pages of these origins may read /healthz and /metrics (* for any)
  -h, --help               Show this help

What a web page can do: open the pool websocket from any origin (browsers do not apply the
same-origin policy to websockets; the pool token is the credential, so a page without one is
refused). It cannot read /healthz or /metrics from another origin or through a re-pointed name.
`,
  async run(argv, io) {
    const values = parseCommandFlags(relayCommand, argv, FLAGS, io)
    if (!values) return EXIT.OK
    const port = portFlag(relayCommand, values.port ?? '7412')
    if (values.dir !== undefined && values.redis !== undefined) {
      io.stderr(`memweave relay: --dir and --redis exclude each other (pools live in one or the other)\n${relayCommand.usage}`)
      return EXIT.USAGE
    }
    const perMinute = values['connections-per-minute']
    if (perMinute !== undefined && !/^[1-9][0-9]{0,8}$/.test(perMinute)) {
      io.stderr(`memweave relay: --connections-per-minute must be a positive integer\n${relayCommand.usage}`)
      return EXIT.USAGE
    }
    const sweep = values['compact-sweep-ms']
    if (sweep !== undefined && !/^[1-9][0-9]{0,9}$/.test(sweep)) {
      io.stderr(`memweave relay: --compact-sweep-ms must be a positive integer\n${relayCommand.usage}`)
      return EXIT.USAGE
    }
    const wait = values['redis-wait-replicas']
    if (wait !== undefined && !/^([0-9]|1[0-6])$/.test(wait)) {
      io.stderr(`memweave relay: --redis-wait-replicas must be an integer 0-16\n${relayCommand.usage}`)
      return EXIT.USAGE
    }
    if ((values['pins-dir'] !== undefined || sweep !== undefined || wait !== undefined) && values.redis === undefined) {
      io.stderr(`memweave relay: --pins-dir, --compact-sweep-ms and --redis-wait-replicas are for a cluster node (--redis)\n${relayCommand.usage}`)
      return EXIT.USAGE
    }
    let target: RedisTarget | null = null
    if (values.redis !== undefined) {
      try {
        target = parseRedisTarget(values.redis)
      } catch (err) {
        if (!isMemweaveError(err)) throw err
        io.stderr(`memweave relay: --${err.message}\n${relayCommand.usage}`)
        return EXIT.USAGE
      }
    }
    // Named here (createRelay's default is the same) so the listening line can say which node this is.
    const nodeId = values.redis === undefined ? null : (values['node-id'] ?? `${hostname()}-${process.pid}`)
    const relay = createRelay({
      host: values.host ?? '127.0.0.1',
      port,
      dir: values.dir ?? null,
      ownerProof: values['require-owner-proof'] ? 'required' : 'optional',
      redis: values.redis ?? null,
      ...(perMinute === undefined ? {} : { limits: { connectionsPerWindow: Number(perMinute), connectionWindowMs: 60_000 } }),
      ...(nodeId === null ? {} : { nodeId }),
      ...(values['pins-dir'] === undefined ? {} : { pinsDir: values['pins-dir'] }),
      ...(sweep === undefined ? {} : { compactSweepMs: Number(sweep) }),
      ...(wait === undefined ? {} : { redisWaitReplicas: Number(wait) }),
      allowedHosts: listFlag(values['allow-host']),
      allowedOrigins: listFlag(values['allow-origin']),
      onError: (err) => io.stderr(`memweave relay: ${describeError(err)}\n`),
    })
    const shutdown = io.shutdown()
    let url: string
    try {
      url = (await relay.listen()).url
    } catch (err) {
      io.stderr(`memweave: cannot start the relay: ${describeListenError(err, { [port]: '--port' })}\n`)
      await relay.close().catch(() => undefined)
      return EXIT.FAILURE
    }
    // A cluster node says which one it is and which Redis it shares (its password hidden): the two
    // things an operator checks first when nodes do not see each other's pools.
    const cluster = nodeId === null || target === null ? '' : ` (cluster node ${nodeId}, Redis ${describeRedisTarget(target)})`
    io.stdout(`memweave relay listening on ${url}${cluster}\n`)
    await untilAborted(shutdown)
    try {
      await relay.close()
    } catch (err) {
      io.stderr(`memweave: error while closing the relay: ${describeError(err)}\n`)
      return EXIT.FAILURE
    }
    return EXIT.OK
  },
}

/** Resolves when the signal aborts (at once if it already has). */
export function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) resolve()
    else signal.addEventListener('abort', () => resolve(), { once: true })
  })
}

export { describeError }
