import { describe, expect, test } from 'vitest'
import { createMemory } from '../../src/memory.js'
import type { StoragePort } from '../../src/storage/port.js'

/**
 * The storage without `watch`: a handle that does not hear the other's commits before it writes
 * (a notice still in flight, or no BroadcastChannel), so its writes take the optimistic path and
 * meet the other's rows there.
 */
function deaf(storage: StoragePort): StoragePort {
  return {
    kind: storage.kind,
    durable: storage.durable,
    open: () => storage.open(),
    close: () => storage.close(),
    read: (tables, body) => storage.read(tables, body),
    write: (tables, body) => storage.write(tables, body),
  }
}

/**
 * Two Memories on one database writing interleaved, neither following the other (two tabs'
 * workers). Issue 31 (fourth round): a write batch's puts go out before its catch-up read is
 * answered; when the other handle committed first the batch is aborted and run again on fresh
 * state. What each write decides must be what a write caught up first decides: a re-assertion of
 * what the other just wrote is answered by its version, a supersede of the other's new fact
 * supersedes it (an unknown ref would make it a fresh write, GMP §3.1).
 */
export function twoWritersSuite(label: string, storageFor: (name: string) => StoragePort): void {
  describe(`two Memories on one database (${label})`, () => {
    test('interleaved writes decide on each other\'s commits: one version per re-assertion, supersedes across handles', async () => {
      const name = `two-writers-${Math.random().toString(36).slice(2)}`
      const a = await createMemory({ storage: deaf(storageFor(name)) })
      const b = await createMemory({ storage: deaf(storageFor(name)) })
      try {
        await a.facts.write('Aria keeps her notes in a paper diary')
        const rounds = 6
        for (let i = 0; i < rounds; i++) {
          // B commits; A has not caught up when it writes the same text: B's version answers.
          const fromB = await b.facts.write(`The build server for team ${i} is in Oslo`)
          expect(await a.facts.write(`The build server for team ${i} is in Oslo`)).toBe(fromB)
          // A commits a fact; B, behind, supersedes it by ref.
          const fromA = await a.facts.write(`Team ${i} deploys on Thursdays`)
          const revised = await b.facts.supersede(fromA, `Team ${i} deploys on Fridays`)
          // A, behind again, re-asserts the revision: B's version answers.
          expect(await a.facts.write(`Team ${i} deploys on Fridays`)).toBe(revised)
          // Idle batches in between, so A's next write goes out before its catch-up answer again.
          for (let q = 0; q < 10; q++) await a.facts.write(`Aria's quiet note ${i}.${q}`)
        }

        const c = await createMemory({ storage: storageFor(name) })
        try {
          const all = await c.facts.audit()
          // 1 + per round: the Oslo fact once, Thursday superseded by Friday, 10 quiet notes.
          expect(all.length).toBe(1 + rounds * 13)
          expect(new Set(all.map((m) => m.content)).size).toBe(all.length)
          for (let i = 0; i < rounds; i++) {
            const thursday = all.find((m) => m.content === `Team ${i} deploys on Thursdays`)!
            const friday = all.find((m) => m.content === `Team ${i} deploys on Fridays`)!
            expect(thursday.supersededBy).toBe(friday.ref)
          }
          // Each writer's own view, once caught up, is what storage holds.
          const view = (list: Array<{ ref: string; supersededBy: string | null }>) => list.map((m) => `${m.ref} ${m.supersededBy}`).sort()
          await a.facts.refresh()
          await b.facts.refresh()
          expect(view(await a.facts.audit())).toEqual(view(all))
          expect(view(await b.facts.audit())).toEqual(view(all))
        } finally {
          await c.close()
        }
      } finally {
        await a.close()
        await b.close()
      }
    })
  })
}
