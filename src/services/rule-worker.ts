import type { Worker } from 'node:worker_threads'
import { workerFor } from '../stream/worker-thread.js'
import type { RuleJob, RuleJobMessage, RuleJobReply } from './rule-worker-thread.js'

/** The job did not finish within its time bound: its worker was terminated (a new one serves the next job). */
export class RuleWorkerTimeout extends Error {
  constructor (readonly timeoutMs: number) {
    super(`stopped after ${timeoutMs} ms`)
  }
}

/** More jobs wait than the worker takes: the caller should come back later. */
export class RuleWorkerBusy extends Error {}

/** Sends one message of a running job to its worker; false once the job is over (finished, failed, timed out). */
export type Post = (message: RuleJobMessage, transfer?: ArrayBuffer[]) => boolean

interface Queued {
  job: RuleJob
  timeoutMs: number
  feed: ((post: Post) => Promise<void>) | undefined
  resolve: (value: unknown) => void
  reject: (err: Error) => void
}

/**
 * Rule work that must not run on the request event loop (validation, backtests: docs/rules.md, "Off the event
 * loop"): one worker thread (stream/worker-thread.ts, as the topology thread and model training use) that runs
 * jobs one at a time, in order. Each job has a time bound: past it the worker is terminated, the job fails with
 * RuleWorkerTimeout, and the next job starts a new worker. A job may `feed` its worker messages while it runs
 * (a backtest streams the stored records). The worker starts with the first job and is kept for the next ones.
 */
export class RuleWorker {
  private worker: Worker | undefined
  private ready: Promise<Worker> | undefined
  private readonly queue: Queued[] = []
  private running = false
  private nextId = 0
  private closed = false

  constructor (private readonly maxQueued = 16) {}

  /** Runs `job` (queued behind the others), its time bound counted from when its worker takes it. */
  run<T> (job: RuleJob, timeoutMs: number, feed?: (post: Post) => Promise<void>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('the rule worker is closed'))
    if (this.queue.length >= this.maxQueued) return Promise.reject(new RuleWorkerBusy(`${this.queue.length} rule jobs are waiting`))
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ job, timeoutMs, feed, resolve: resolve as (value: unknown) => void, reject })
      void this.next()
    })
  }

  async close (): Promise<void> {
    this.closed = true
    for (const q of this.queue.splice(0)) q.reject(new Error('the rule worker is closed'))
    await this.stop()
  }

  private async stop (): Promise<void> {
    const worker = this.worker
    this.worker = undefined
    this.ready = undefined
    if (worker !== undefined) await worker.terminate()
  }

  private start (): Promise<Worker> {
    if (this.ready !== undefined) return this.ready
    const worker = workerFor(import.meta.url, './rule-worker-thread', {})
    worker.unref()
    this.worker = worker
    const ready = new Promise<Worker>((resolve, reject) => {
      worker.once('message', () => resolve(worker))
      worker.once('error', reject)
      worker.once('exit', code => reject(new Error(`the rule worker exited with code ${code} while starting`)))
    })
    // A worker that dies (or fails to start) is replaced by the next job; its error fails the job it ran.
    worker.on('error', () => {})
    worker.once('exit', () => { if (this.worker === worker) { this.worker = undefined; this.ready = undefined } })
    this.ready = ready
    return ready
  }

  private async next (): Promise<void> {
    if (this.running) return
    const q = this.queue.shift()
    if (q === undefined) return
    this.running = true
    try {
      q.resolve(await this.execute(q))
    } catch (err) {
      q.reject(err as Error)
    } finally {
      this.running = false
      void this.next()
    }
  }

  private async execute (q: Queued): Promise<unknown> {
    const worker = await this.start()
    const id = this.nextId++
    let over = false
    return await new Promise((resolve, reject) => {
      const finish = (settle: () => void) => {
        if (over) return
        over = true
        clearTimeout(timer)
        worker.off('message', onMessage)
        worker.off('exit', onExit)
        worker.off('error', onError)
        settle()
      }
      const onMessage = (m: RuleJobReply) => {
        if (m.id !== id) return
        finish(() => m.ok ? resolve(m.result) : reject(new Error(m.error)))
      }
      const onExit = (code: number) => finish(() => reject(new Error(`the rule worker exited with code ${code}`)))
      const onError = (err: Error) => finish(() => reject(err))
      const timer = setTimeout(() => finish(() => {
        reject(new RuleWorkerTimeout(q.timeoutMs))
        void this.stop()
      }), q.timeoutMs)
      worker.on('message', onMessage)
      worker.once('exit', onExit)
      worker.once('error', onError)
      const post: Post = (message, transfer = []) => {
        if (over) return false
        worker.postMessage({ ...message, id }, transfer)
        return true
      }
      post(q.job)
      q.feed?.(post).catch(err => finish(() => reject(err as Error)))
    })
  }
}
