import { describe, expect, test } from 'vitest'
import { isMemweaveError, openMemory } from '../../src/index.js'

// openMemory used to hang forever when the worker could not load (issue 12): now it rejects with
// WORKER_FAILED, naming the likely cause, within workerTimeoutMs.
const script = (source: string): string => URL.createObjectURL(new Blob([source], { type: 'text/javascript' }))

async function failure(promise: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now()
  try {
    await promise
  } catch (error) {
    return { error, ms: performance.now() - started }
  }
  throw new Error('openMemory resolved although the worker cannot serve it')
}

describe.each(['shared', 'dedicated'] as const)('a worker that does not start, in %s mode', (mode) => {
  test('a script that is not there rejects with WORKER_FAILED', async () => {
    const { error } = await failure(openMemory({ name: `missing-${mode}`, mode, worker: '/no/such/memory-worker.js', workerTimeoutMs: 4_000, persist: false }))
    expect(isMemweaveError(error)).toBe(true)
    expect(error).toMatchObject({ code: 'WORKER_FAILED', details: { operation: 'openMemory' } })
    expect((error as Error).message).toMatch(/worker script or one of its chunks was not served/)
  })

  test('a script whose import fails rejects with WORKER_FAILED', async () => {
    const worker = script(`import '${location.origin}/no/such/chunk.js'\n`)
    const { error } = await failure(openMemory({ name: `broken-${mode}`, mode, worker, workerTimeoutMs: 4_000, persist: false }))
    expect(error).toMatchObject({ code: 'WORKER_FAILED' })
  })

  test('a script that loads but never answers rejects after workerTimeoutMs, not before', async () => {
    const worker = script('// loads, exposes nothing\n')
    const { error, ms } = await failure(openMemory({ name: `silent-${mode}`, mode, worker, workerTimeoutMs: 1_500, persist: false }))
    expect(error).toMatchObject({ code: 'WORKER_FAILED', details: { reason: 'no answer within 1500 ms' } })
    expect(ms).toBeGreaterThanOrEqual(1_400)
  })
})

test('workerTimeoutMs must be a positive number', async () => {
  await expect(openMemory({ workerTimeoutMs: 0 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'workerTimeoutMs' } })
})
