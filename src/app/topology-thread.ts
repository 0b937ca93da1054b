import type { Logger } from 'pino'
import type { EventLog } from '../stream/eventlog/event-log.js'
import { EmbeddedEventLog } from '../stream/eventlog/embedded.js'
import { serveFollower } from '../stream/eventlog/follower.js'
import type { HealthReport, PipelineHealth } from '../stream/health.js'
import { workerFor } from '../stream/worker-thread.js'
import type { Config } from './config.js'

export interface TopologyThread {
  /** Per consumer group of the worker's topologies, records not yet committed ({} once the worker is gone). */
  lag(): Promise<Record<string, number>>
  stop(): Promise<void>
}

/**
 * Starts the topologies (all, or `names`) in a worker thread; on the embedded log it follows this process's
 * log (stream/eventlog/follower.ts). Its health joins `health`. Resolves once they run.
 */
export async function startTopologyThread (config: Config, names: string[] | undefined, log: EventLog, health: PipelineHealth, logger: Logger): Promise<TopologyThread> {
  const embedded = log instanceof EmbeddedEventLog ? log : undefined
  const worker = workerFor(import.meta.url, './topology-worker', { config, names, logLevel: logger.level, logHandle: embedded?.handle })
  const stopServing = embedded === undefined ? () => {} : serveFollower(embedded, worker)
  let remote: HealthReport | undefined
  health.include(() => remote)
  let stopping = false
  let gone = false
  let stopped: () => void = () => {}
  const done = new Promise<void>(resolve => { stopped = resolve })
  const lagAnswers = new Map<number, (lag: Record<string, number>) => void>()
  let nextLag = 0
  // After start, a worker that dies is a failure /healthz shows.
  const died = (error: string) => {
    gone = true
    stopped()
    for (const answer of lagAnswers.values()) answer({})
    lagAnswers.clear()
    if (stopping) return
    logger.error({ error }, 'topology thread died')
    remote = { status: 'degraded', failing: [{ component: 'topology-thread', since_ms: Date.now(), error, attempts: 1 }], dead_lettered: remote?.dead_lettered ?? {}, in_progress: {} }
    stopServing()
  }
  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (m: { op?: string, report?: HealthReport, id?: number, value?: Record<string, number> }) => {
      if (m.op === 'health') remote = m.report
      else if (m.op === 'ready') resolve()
      else if (m.op === 'stopped') stopped()
      else if (m.op === 'lag') {
        lagAnswers.get(m.id!)?.(m.value ?? {})
        lagAnswers.delete(m.id!)
      }
    })
    worker.on('error', err => { reject(err); died(err.message) })
    worker.on('exit', code => { reject(new Error(`topology thread exited with ${code}`)); died(`exited with ${code}`) })
  })
  await ready
  return {
    lag: () => gone
      ? Promise.resolve({})
      : new Promise(resolve => {
        const id = nextLag++
        lagAnswers.set(id, resolve)
        worker.postMessage({ op: 'lag', id })
      }),
    async stop () {
      stopping = true
      worker.postMessage({ op: 'stop' })
      await done
      stopServing()
      await worker.terminate()
    }
  }
}
