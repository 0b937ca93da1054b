import { Worker } from 'node:worker_threads'
import type { Logger } from 'pino'
import type { EventLog } from '../stream/eventlog/event-log.js'
import { servePort } from '../stream/eventlog/port.js'
import type { HealthReport, PipelineHealth } from '../stream/health.js'
import type { Config } from './config.js'

/**
 * A worker running the script next to this module: built, the .js file; from source (tests, benchmarks run
 * through tsx), the .ts file with tsx's loader registered in the worker first (loaders are per thread).
 */
function topologyWorker (workerData: unknown): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./topology-worker.js', import.meta.url), { workerData })
  const script = new URL('./topology-worker.ts', import.meta.url).href
  return new Worker(`import('tsx/esm/api').then(tsx => { tsx.register(); return import(${JSON.stringify(script)}) })`, { eval: true, workerData })
}

/**
 * Starts the topologies (all, or `names`) in a worker thread serving it this process's event log; its health
 * joins `health`. Resolves once they run, with the function that stops them.
 */
export async function startTopologyThread (config: Config, names: string[] | undefined, log: EventLog, health: PipelineHealth, logger: Logger): Promise<() => Promise<void>> {
  const worker = topologyWorker({ config, names, logLevel: logger.level })
  const stopServing = servePort(log, worker)
  let remote: HealthReport | undefined
  health.include(() => remote)
  let stopping = false
  let stopped: () => void = () => {}
  const done = new Promise<void>(resolve => { stopped = resolve })
  // After start, a worker that dies is a failure /healthz shows, and the batches it held are handed back.
  const died = (error: string) => {
    stopped()
    if (stopping) return
    logger.error({ error }, 'topology thread died')
    remote = { status: 'degraded', failing: [{ component: 'topology-thread', since_ms: Date.now(), error, attempts: 1 }], dead_lettered: remote?.dead_lettered ?? {} }
    void stopServing()
  }
  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (m: { op?: string, report?: HealthReport }) => {
      if (m.op === 'health') remote = m.report
      else if (m.op === 'ready') resolve()
      else if (m.op === 'stopped') stopped()
    })
    worker.on('error', err => { reject(err); died(err.message) })
    worker.on('exit', code => { reject(new Error(`topology thread exited with ${code}`)); died(`exited with ${code}`) })
  })
  await ready
  return async () => {
    stopping = true
    worker.postMessage({ op: 'stop' })
    await done
    await stopServing()
    await worker.terminate()
  }
}
