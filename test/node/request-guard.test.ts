import type { IncomingMessage } from 'node:http'
import { describe, expect, test } from 'vitest'
import { isMemweaveError } from '../../src/core/errors.js'
import { requestGuard } from '../../src/node/request-guard.js'

/** The rules of src/node/request-guard.ts, case by case (the servers' own tests drive it over HTTP and from Chromium). */

const req = (headers: Record<string, string>, method = 'GET'): IncomingMessage => ({ headers, method }) as unknown as IncomingMessage

describe('Host', () => {
  test('bound to 127.0.0.1: its address and the loopback names on its port, nothing else', () => {
    const guard = requestGuard('127.0.0.1', 7411)
    for (const host of ['127.0.0.1:7411', 'localhost:7411', 'LocalHost:7411', 'localhost.:7411', 'app.localhost:7411', '[::1]:7411']) {
      expect(guard.refuse(req({ host })), host).toBeNull()
    }
    for (const host of ['evil.example:7411', 'localhost:7412', '127.0.0.1', 'localhost', '10.0.0.1:7411', '0.0.0.0:7411', 'localhost.evil.example:7411', 'evil.example', 'a@127.0.0.1:7411', '127.0.0.1:7411:7411', '127.0.0.1:99999', '']) {
      expect(guard.refuse(req({ host }))?.error, host).toBe('forbidden_host')
    }
    expect(guard.refuse(req({}))?.error).toBe('forbidden_host')
  })

  test('bound to every interface: any IP literal on its port (an address cannot be re-pointed), names only when allowed', () => {
    for (const bound of ['0.0.0.0', '::']) {
      const guard = requestGuard(bound, 80, { allowedHosts: ['memory.example:8443', '.corp.example'] })
      for (const host of ['192.168.1.20', '192.168.1.20:80', '[fe80::1]:80', 'localhost', 'memory.example:8443', 'x.corp.example:1', 'corp.example']) {
        expect(guard.refuse(req({ host })), `${bound} ${host}`).toBeNull()
      }
      for (const host of ['192.168.1.20:81', 'nas.local', 'memory.example', 'memory.example:443', 'evilcorp.example', 'corp.example.evil']) {
        expect(guard.refuse(req({ host }))?.error, `${bound} ${host}`).toBe('forbidden_host')
      }
    }
  })

  test('`*` turns the check off; a bad allow-list entry fails at construction', () => {
    expect(requestGuard('127.0.0.1', 1, { allowedHosts: ['*'] }).refuse(req({ host: 'anything.example' }))).toBeNull()
    for (const allowedHosts of [['http://x.example'], ['a b'], ['']]) {
      expect(() => requestGuard('127.0.0.1', 1, { allowedHosts })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
    }
    try {
      requestGuard('127.0.0.1', 1, { allowedOrigins: ['not an origin'] })
      expect.unreachable()
    } catch (err) {
      expect(isMemweaveError(err) && err.code).toBe('INVALID_ARGUMENT')
    }
  })
})

describe('Origin and Sec-Fetch-Site', () => {
  const host = '127.0.0.1:7411'
  test('its own origin and requests from no page pass; every other origin is refused unless allowed', () => {
    const guard = requestGuard('127.0.0.1', 7411, { allowedOrigins: ['https://app.example'] })
    for (const headers of [{} as Record<string, string>, { origin: 'http://127.0.0.1:7411' }, { 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'none' }, { origin: 'https://app.example' }, { origin: 'https://APP.example:443' }]) {
      expect(guard.refuse(req({ host, ...headers })), JSON.stringify(headers)).toBeNull()
    }
    for (const headers of [{ origin: 'null' } as Record<string, string>, { origin: 'http://localhost:7411' }, { origin: 'https://127.0.0.1:7411' }, { origin: 'http://app.example' }, { origin: 'https://app.example.evil' }, { origin: 'garbage' }, { 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }]) {
      expect(guard.refuse(req({ host, ...headers }))?.error, JSON.stringify(headers)).toBe('forbidden_origin')
    }
    expect(guard.corsOrigin(req({ host, origin: 'https://app.example' }))).toBe('https://app.example')
    expect(guard.corsOrigin(req({ host, origin: 'http://127.0.0.1:7411' }))).toBeNull()
  })

  test('navigations from another site pass only where allowed (the demo server), and only GET or HEAD', () => {
    const nav = { host, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' }
    expect(requestGuard('127.0.0.1', 7411).refuse(req(nav))?.error).toBe('forbidden_origin')
    const demo = requestGuard('127.0.0.1', 7411, { navigations: true })
    expect(demo.refuse(req(nav))).toBeNull()
    expect(demo.refuse(req(nav, 'POST'))?.error).toBe('forbidden_origin')
    expect(demo.refuse(req({ ...nav, 'sec-fetch-mode': 'no-cors' }))?.error).toBe('forbidden_origin')
  })

  test('`*` allows every origin', () => {
    const guard = requestGuard('127.0.0.1', 7411, { allowedOrigins: ['*'] })
    expect(guard.refuse(req({ host, origin: 'http://any.example' }))).toBeNull()
    expect(guard.refuse(req({ host, 'sec-fetch-site': 'cross-site' }))).toBeNull()
    // The Host check still holds.
    expect(guard.refuse(req({ host: 'evil.example:7411', origin: 'http://evil.example:7411' }))?.error).toBe('forbidden_host')
  })
})
