import { describeError } from './describe-error.js'

/**
 * One line for a server that could not bind. EADDRINUSE was "EADDRINUSE listen EADDRINUSE: address
 * already in use 127.0.0.1:7412" (issue 29, item 7): the code twice and no way out. Here it names
 * the address, says what it means and which flag picks another port; `flags` maps a port to the
 * flag that set it (`memweave start` has three). Any other error is `describeError`'s line.
 */
export function describeListenError(err: unknown, flags: Readonly<Record<number, string>>): string {
  const e = err as NodeJS.ErrnoException & { address?: unknown; port?: unknown }
  if (e?.code !== 'EADDRINUSE' && e?.code !== 'EACCES') return describeError(err)
  const port = typeof e.port === 'number' ? e.port : null
  const where = typeof e.address === 'string' && port !== null ? `${e.address}:${port}` : port !== null ? `port ${port}` : 'the address'
  const flag = (port !== null ? flags[port] : undefined) ?? Object.values(flags)[0] ?? '--port'
  if (e.code === 'EACCES') return `EACCES: this user may not listen on ${where} (ports below 1024 need privileges); choose another with ${flag}`
  return `EADDRINUSE: ${where} is already in use by another program (another memweave?); stop it, or choose another port with ${flag} (0 picks a free one)`
}
