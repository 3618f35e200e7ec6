// The dedicated-worker fallback (browsers without SharedWorker): its election and its sync, loaded
// together by the host only where a worker takes part in an election, so a SharedWorker, which
// never does, does not download them (src/runtime/host.ts `build`).
export { TabElection } from './election.js'
export { TabSync } from './tab-sync.js'
