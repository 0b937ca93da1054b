import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import path from 'node:path'
import type { Config } from './config.js'

/**
 * Where the one-process service runs its topologies, fixed per data directory: their state lives in
 * DATA_DIR/state on the main thread and in DATA_DIR/topologies in the worker, so a directory keeps the place
 * it started with (recorded in DATA_DIR/topology-thread) and refuses a setting that would leave that state
 * behind. `auto`: a worker thread on 4 cores or more, else the main thread (on 2 cores, with the load on the
 * same cores, the worker added 4-8 % throughput and 150-300 MB of memory: docs/benchmarks.md). A directory
 * from before the worker existed holds its topology state in DATA_DIR/state: main thread.
 */
export function topologyThreadFor (config: Pick<Config, 'dataDir' | 'topologyThread'>): 'worker' | 'main' {
  const marker = path.join(config.dataDir, 'topology-thread')
  const recorded = existsSync(marker) ? readFileSync(marker, 'utf8').trim() : existsSync(path.join(config.dataDir, 'state')) ? 'main' : undefined
  if (recorded === 'worker' || recorded === 'main') {
    if (config.topologyThread !== 'auto' && config.topologyThread !== recorded) {
      throw new Error(`TOPOLOGY_THREAD=${config.topologyThread}, but ${config.dataDir} keeps its topology state for the ${recorded} thread; use TOPOLOGY_THREAD=${recorded} (or auto), or a new DATA_DIR`)
    }
    if (!existsSync(marker)) writeFileSync(marker, recorded)
    return recorded
  }
  const chosen = config.topologyThread !== 'auto' ? config.topologyThread : availableParallelism() >= 4 ? 'worker' : 'main'
  writeFileSync(marker, chosen)
  return chosen
}
