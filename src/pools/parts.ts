import type { Maintenance } from './maintenance.js'
import type { Presenter } from './presenter.js'
import type { PoolReplica } from './replica.js'

/** What every job of the pool store works with: the replica, how answers are presented, what follows a commit. */
export interface PoolParts {
  readonly r: PoolReplica
  readonly show: Presenter
  readonly upkeep: Maintenance
}
