import type { Logger } from 'pino'
import type { EventLog } from '../stream/eventlog/event-log.js'
import { EmbeddedEventLog } from '../stream/eventlog/embedded.js'
import { serveFollower } from '../stream/eventlog/follower.js'
import type { HealthReport, PipelineHealth } from '../stream/health.js'
import { workerFor } from '../stream/worker-thread.js'
import type { Config } from './config.js'
import type { MetricsJson } from '../stream/metrics.js'

export interface TopologyThread {
  /** Per consumer group of the worker's topologies, records not yet committed ({} once the worker is gone). */
  lag(): Promise<Record<string, number>>
  /** The worker's Prometheus figures ([] once the worker is gone). */
  metrics(): Promise<MetricsJson[]>
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
  /** Questions asked to the worker (lag, metrics) waiting for its answer, each with what to answer if it dies. */
  const answers = new Map<number, { answer: (value: unknown) => void, fallback: unknown }>()
  let nextQuestion = 0
  const ask = <T>(op: string, fallback: T): Promise<T> => gone
    ? Promise.resolve(fallback)
    : new Promise<T>(resolve => {
      const id = nextQuestion++
      answers.set(id, { answer: value => resolve(value as T), fallback })
      worker.postMessage({ op, id })
    })
  // After start, a worker that dies is a failure /healthz shows.
  const died = (error: string) => {
    gone = true
    stopped()
    for (const { answer, fallback } of answers.values()) answer(fallback)
    answers.clear()
    if (stopping) return
    logger.error({ error }, 'topology thread died')
    remote = { status: 'degraded', failing: [{ component: 'topology-thread', since_ms: Date.now(), error, attempts: 1 }], dead_lettered: remote?.dead_lettered ?? {}, in_progress: {} }
    stopServing()
  }
  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (m: { op?: string, report?: HealthReport, id?: number, value?: unknown }) => {
      if (m.op === 'health') remote = m.report
      else if (m.op === 'ready') resolve()
      else if (m.op === 'stopped') stopped()
      else if ((m.op === 'lag' || m.op === 'metrics') && m.id !== undefined) {
        answers.get(m.id)?.answer(m.value)
        answers.delete(m.id)
      }
    })
    worker.on('error', err => { reject(err); died(err.message) })
    worker.on('exit', code => { reject(new Error(`topology thread exited with ${code}`)); died(`exited with ${code}`) })
  })
  await ready
  return {
    lag: () => ask<Record<string, number>>('lag', {}),
    metrics: async () => [await ask<MetricsJson | undefined>('metrics', undefined)].filter(m => m !== undefined),
    async stop () {
      stopping = true
      worker.postMessage({ op: 'stop' })
      await done
      stopServing()
      await worker.terminate()
    }
  }
}
