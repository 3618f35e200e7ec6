import { join } from 'node:path'
import { isMemweaveError } from '../core/errors.js'
import { createGmpServer } from '../gmp-http/server.js'
import { createRelay } from '../relay/relay.js'
import { createStaticServer, type StaticServer } from './static-server.js'
import { EXIT, UsageError, WEB_FLAGS, WEB_PAGE_HELP, listFlag, parseCommandFlags, portFlag, type Command } from './command.js'
import { describeError, untilAborted } from './relay.js'
import { describeListenError } from './listen-error.js'

const FLAGS = {
  host: { type: 'string' },
  'gmp-port': { type: 'string' },
  'relay-port': { type: 'string' },
  token: { type: 'string' },
  dir: { type: 'string' },
  demo: { type: 'string' },
  'demo-port': { type: 'string' },
  ...WEB_FLAGS,
  help: { type: 'boolean', short: 'h' },
} as const

/** `memweave start`: the GMP server, the relay and, with `--demo`, the built demo app in one process (what `npm start` runs). */
export const startCommand: Command = {
  name: 'start',
  summary: 'Run the GMP server and the relay together until SIGINT or SIGTERM',
  usage: `Usage: memweave start [--host 127.0.0.1] [--gmp-port 7411] [--relay-port 7412] [--token T] [--dir D]
                      [--demo DIR] [--demo-port 7413]

Runs "memweave gmp serve" and "memweave relay" in one process, prints one line per service, and
stops both on SIGINT or SIGTERM. With --demo it also serves a built web app (npm start builds the
demo into demo/dist) and tells it where the relay is (/memweave.json).

Options:
  --host H          Interface both bind (default 127.0.0.1: programs on this machine, and web
                    pages only as below)
  --gmp-port N      GMP server port; 0 picks a free one (default 7411)
  --relay-port N    Relay port; 0 picks a free one (default 7412)
  --token T         Bearer token the GMP server requires (default: $MEMWEAVE_TOKEN when set, else none)
  --dir D           Keep GMP stores in D/gmp and relay pools in D/relay (default: in memory)
  --demo DIR        Serve the static files of DIR (the built demo) over HTTP
  --demo-port N     Port of the demo; 0 picks a free one (default 7413)
  -h, --help        Show this help

${WEB_PAGE_HELP}The relay's websocket takes connections from pages of any origin (the pool token is the
credential); the demo's pages are served to any browser tab but not embedded by other sites.
`,
  async run(argv, io) {
    const values = parseCommandFlags(startCommand, argv, FLAGS, io)
    if (!values) return EXIT.OK
    const gmpPort = portFlag(startCommand, values['gmp-port'] ?? '7411', '--gmp-port')
    const relayPort = portFlag(startCommand, values['relay-port'] ?? '7412', '--relay-port')
    const token = values.token ?? io.env['MEMWEAVE_TOKEN'] ?? null
    if (token !== null && token.trim() === '') throw new UsageError(startCommand, '--token must not be empty')
    const host = values.host ?? '127.0.0.1'
    const dir = values.dir ?? null
    const demoDir = values.demo ?? null
    if (demoDir !== null && demoDir.trim() === '') throw new UsageError(startCommand, '--demo must name a directory')
    if (demoDir === null && values['demo-port'] !== undefined) throw new UsageError(startCommand, '--demo-port needs --demo')
    const demoPort = portFlag(startCommand, values['demo-port'] ?? '7413', '--demo-port')
    const shutdown = io.shutdown()
    const web = { allowedHosts: listFlag(values['allow-host']), allowedOrigins: listFlag(values['allow-origin']) }
    const gmp = createGmpServer({ host, port: gmpPort, token, dir: dir === null ? null : join(dir, 'gmp'), ...web })
    const relay = createRelay({
      host,
      ...web,
      port: relayPort,
      dir: dir === null ? null : join(dir, 'relay'),
      onError: (err) => io.stderr(`memweave relay: ${describeError(err)}\n`),
    })
    let demo: StaticServer | null = null
    const stopAll = async (): Promise<boolean> => {
      const results = await Promise.allSettled([gmp.close(), relay.close(), demo?.close()])
      for (const r of results) if (r.status === 'rejected') io.stderr(`memweave: error while stopping: ${describeError(r.reason)}\n`)
      return results.every((r) => r.status === 'fulfilled')
    }
    let urls: string[]
    try {
      const [g, r] = await Promise.all([gmp.listen(), relay.listen()])
      urls = [g.url, r.url]
      if (demoDir !== null) {
        // The demo learns the relay's real address (a port of 0 is only known now) from this file.
        const config = JSON.stringify({ v: 1, relay: r.url, gmp: g.url })
        demo = createStaticServer({ root: demoDir, host, port: demoPort, ...web, files: { '/memweave.json': { type: 'application/json; charset=utf-8', body: config } } })
        urls.push((await demo.listen()).url)
      }
    } catch (err) {
      io.stderr(`memweave: cannot start: ${describeListenError(err, { [gmpPort]: '--gmp-port', [relayPort]: '--relay-port', [demoPort]: '--demo-port' })}\n`)
      if (isMemweaveError(err) && err.code === 'NOT_FOUND' && demoDir !== null) io.stderr('memweave: build the demo first: npm run build:demo\n')
      await stopAll()
      return EXIT.FAILURE
    }
    io.stdout(`memweave GMP server listening on ${urls[0]}\nmemweave relay listening on ${urls[1]}\n`)
    if (urls[2] !== undefined) io.stdout(`memweave demo on ${urls[2]}\n`)
    await untilAborted(shutdown)
    return (await stopAll()) ? EXIT.OK : EXIT.FAILURE
  },
}
