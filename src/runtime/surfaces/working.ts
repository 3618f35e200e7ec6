import type { SharedWorkingMemory, WorkingMemory } from '../../working/types.js'
import { surfaceOf } from '../surface.js'

/** A working-memory task (`mem.working.open()`'s result), called in the worker: what `SharedWorkingMemory` declares. */
export const TASK_SURFACE = surfaceOf<SharedWorkingMemory>('working task', {
  taskId: 'data',
  config: 'data',
  addObservation: 'call',
  getContextForAgent: 'call',
  flagConflict: 'call',
  getConflicts: 'call',
  resolveConflict: 'call',
  getBeliefCandidates: 'call',
  applyAttentionDecay: 'call',
  boostAttention: 'call',
  endIteration: 'call',
  observations: 'call',
  get: 'call',
  evicted: 'call',
})

/** `mem.working`: what `WorkingMemory` declares; `open` returns a task, kept in the worker. */
export const WORKING_SURFACE = surfaceOf<WorkingMemory>('working', {
  open: TASK_SURFACE,
})
