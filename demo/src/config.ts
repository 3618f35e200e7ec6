/**
 * Where the relay is. `memweave start --demo` serves `/memweave.json` with the addresses it bound
 * (ports may have been picked at start); `?relay=ws://…` overrides it; without either (the Vite
 * dev server) the relay is assumed on this host's default port.
 */

export interface DemoConfig {
  readonly relay: string
  /** The GMP HTTP server, when `memweave start` runs one. */
  readonly gmp: string | null
}

export const DEFAULT_RELAY_PORT = 7412

export async function loadConfig(location: Location = window.location): Promise<DemoConfig> {
  const host = location.hostname || '127.0.0.1'
  const fallback: DemoConfig = { relay: `ws://${host}:${DEFAULT_RELAY_PORT}`, gmp: null }
  let served: DemoConfig = fallback
  try {
    const res = await fetch(new URL('memweave.json', location.href), { cache: 'no-store' })
    if (res.ok) {
      const json = (await res.json()) as { relay?: unknown; gmp?: unknown }
      if (typeof json.relay === 'string') served = { relay: reachable(json.relay, host), gmp: typeof json.gmp === 'string' ? reachable(json.gmp, host) : null }
    }
  } catch {
    // Not served by memweave start (or offline): keep the fallback.
  }
  const override = new URLSearchParams(location.search).get('relay')
  return override ? { ...served, relay: override } : served
}

/** A server bound to every interface reports 0.0.0.0 or [::]; a browser must dial the host it loaded the page from. */
function reachable(url: string, host: string): string {
  const u = new URL(url)
  if (u.hostname === '0.0.0.0' || u.hostname === '[::]') u.hostname = host
  return u.href.replace(/\/$/, '')
}
