import { isMemweaveError } from '../core/errors.js'
import { createGmpServer } from '../gmp-http/server.js'
import { EXIT, UsageError, WEB_FLAGS, WEB_PAGE_HELP, commandGroup, listFlag, parseCommandFlags, portFlag, type Command } from './command.js'
import { describeListenError } from './listen-error.js'
import { repairCommand } from './gmp-repair.js'

const SERVE_FLAGS = {
  host: { type: 'string' },
  port: { type: 'string' },
  token: { type: 'string' },
  dir: { type: 'string' },
  'max-store-bytes': { type: 'string' },
  'max-total-bytes': { type: 'string' },
  ...WEB_FLAGS,
  help: { type: 'boolean', short: 'h' },
} as const

const serve: Command = {
  name: 'serve',
  summary: 'Serve GMP stores over HTTP + JSON until SIGINT or SIGTERM',
  usage: `Usage: memweave gmp serve [--host 127.0.0.1] [--port 7411] [--token T] [--dir D]

Serves GMP stores over HTTP + JSON (the GMP wire binding) at http://HOST:PORT/v1 and runs
until SIGINT or SIGTERM, then lets running requests finish and closes every store.

Options:
  --host H    Interface to bind (default 127.0.0.1: programs on this machine, and web
              pages only as below)
  --port N    TCP port; 0 picks a free one (default 7411)
  --token T   Require "Authorization: Bearer T" on every request
              (default: $MEMWEAVE_TOKEN when set, else no token)
  --dir D     Keep stores and the server's signing key in D, so they survive restarts
              (default: in memory, gone on exit)
  --max-store-bytes N
              With --dir: the most one store may hold (its rows' JSON); writes past it
              answer 413 quota_exceeded (default 268435456, 256 MiB)
  --max-total-bytes N
              With --dir: the most all open stores may hold together, as rows live
              in memory (default 1073741824, 1 GiB)
  -h, --help  Show this help

${WEB_PAGE_HELP}`,
  async run(argv, io) {
    const values = parseCommandFlags(serve, argv, SERVE_FLAGS, io)
    if (!values) return EXIT.OK
    const port = portFlag(serve, values.port ?? '7411')
    const token = values.token ?? io.env['MEMWEAVE_TOKEN'] ?? null
    if (token !== null && token.trim() === '') throw new UsageError(serve, '--token must not be empty')
    const maxStoreBytes = bytesFlag(values['max-store-bytes'], '--max-store-bytes')
    const maxTotalStoreBytes = bytesFlag(values['max-total-bytes'], '--max-total-bytes')
    const shutdown = io.shutdown()
    const server = createGmpServer({
      host: values.host ?? '127.0.0.1', port, token, dir: values.dir ?? null,
      ...(maxStoreBytes === undefined ? {} : { maxStoreBytes }), ...(maxTotalStoreBytes === undefined ? {} : { maxTotalStoreBytes }),
      allowedHosts: listFlag(values['allow-host']), allowedOrigins: listFlag(values['allow-origin']),
    })
    let url: string
    try {
      url = (await server.listen()).url
    } catch (err) {
      io.stderr(`memweave: cannot start the GMP server: ${describeListenError(err, { [port]: '--port' })}\n`)
      await server.close().catch(() => undefined)
      return EXIT.FAILURE
    }
    io.stdout(`memweave GMP server listening on ${url}\n`)
    await new Promise<void>((resolve) => {
      if (shutdown.aborted) resolve()
      else shutdown.addEventListener('abort', () => resolve(), { once: true })
    })
    try {
      await server.close()
    } catch (err) {
      io.stderr(`memweave: error while closing the GMP server: ${describe(err)}\n`)
      return EXIT.FAILURE
    }
    return EXIT.OK
  },
}

function bytesFlag(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined
  if (!/^[1-9]\d{0,14}$/.test(text)) throw new UsageError(serve, `${flag} must be a positive integer (bytes)`)
  return Number(text)
}

function describe(err: unknown): string {
  if (isMemweaveError(err)) return err.message
  const e = err as NodeJS.ErrnoException
  return e?.code ? `${e.code} ${e.message}` : String(e?.message ?? err)
}

/** `memweave gmp ...`: the GMP fact store over the network. */
export const gmpCommand: Command = commandGroup('gmp', 'GMP memory stores over HTTP (the GMP wire binding)', [serve, repairCommand])
