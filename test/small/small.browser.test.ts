// mem.small on real IndexedDB in Chromium, through createMemory({ storage: 'indexeddb' }): the same
// suite as in Node (small-suite.ts), so the browser applies exactly the same validation.
// Through the worker client (openMemory): test/runtime/runtime-modules.browser.test.ts.
import { describe, expect, test } from 'vitest'
import { createIdentity } from '../../src/core/identity.js'
import { createMemory } from '../../src/memory.js'
import { validateWorkspace } from '../../src/small/validate.js'
import { indexedDbStorage } from '../../src/storage/dexie-adapter.js'
import { MANDATORY_REPLAYID_FILES, SPEC_V1_FILES } from '../helpers/small-fixtures.js'
import { smallSuite } from './small-suite.js'

smallSuite('Dexie on real IndexedDB (Chromium)', {
  valid: SPEC_V1_FILES,
  older: MANDATORY_REPLAYID_FILES,
  fresh() {
    const name = `small-${crypto.randomUUID()}`
    return {
      open: ({ identity, humans, now }) => createMemory({ storage: 'indexeddb', name, identity, small: { humans }, now }),
      raw: async () => {
        const s = indexedDbStorage({ name })
        await s.open()
        return s
      },
    }
  },
})

describe('mem.small in the browser', () => {
  test('documents outlive the memory: closed and reopened, the workspace is still there and valid', async () => {
    const name = `small-${crypto.randomUUID()}`
    const agent = await createIdentity({ nonExtractable: true })
    const human = await createIdentity({ nonExtractable: true })
    const first = await createMemory({ storage: 'indexeddb', name, identity: agent, small: { humans: [human.did] } })
    await first.small.import(SPEC_V1_FILES, { identity: human })
    const entry = await first.small.appendProgress({ task_id: 'task-2', status: 'in_progress', command: 'npx vitest run' })
    await first.close()
    const again = await createMemory({ storage: 'indexeddb', name, identity: agent, small: { humans: [human.did] } })
    expect((await again.small.get('progress'))?.data.entries.at(-1)).toEqual(entry)
    const report = await again.small.validate({ strict: true })
    expect(report.errors).toEqual([])
    expect((await again.small.handoff()).resume.current_task_id).toBe('task-2')
    await again.close()
  })

  test('the validator gives the same findings here as in Node', () => {
    const names = Object.fromEntries(Object.entries(MANDATORY_REPLAYID_FILES).map(([k, v]) => [k.replace('.small.yml', ''), v]))
    const { report } = validateWorkspace(names)
    expect(report.errors).toEqual([
      {
        severity: 'error', file: '.small/handoff.small.yml', pointer: '/resume/current_task_id', rule: 'schema', line: 5, column: 3,
        message: 'must be a non-empty string or null, got an empty string; write null (or leave the key out) when no task is current',
      },
    ])
  })
})
