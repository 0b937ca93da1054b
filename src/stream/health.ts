import { deadLetteredTotal } from './metrics.js'

/**
 * What is failing in this process's pipeline right now (the outbox relay, a consumer group), how many
 * records each has dead-lettered since start, and background work under way (a model training and its
 * publication), by component. GET /healthz reports `degraded` while anything is failing.
 */
export interface HealthReport { status: 'ok' | 'degraded', failing: Failure[], dead_lettered: Record<string, number>, in_progress: Record<string, number> }

export interface Failure { component: string, since_ms: number, error: string, attempts: number }

export class PipelineHealth {
  private readonly failures = new Map<string, Failure>()
  private readonly deadLetters = new Map<string, number>()
  private readonly working = new Map<string, number>()

  private readonly others: Array<() => HealthReport | undefined> = []

  constructor (private readonly clock: () => number = Date.now) {}

  /** Adds another health to this one's report (the topologies' worker thread). */
  include (other: () => HealthReport | undefined): void {
    this.others.push(other)
  }

  /** Called after every change (the worker thread reports its health as it changes). */
  onChange: () => void = () => {}

  failing (component: string, err: unknown): void {
    const current = this.failures.get(component)
    const error = err instanceof Error ? err.message : String(err)
    this.failures.set(component, { component, since_ms: current?.since_ms ?? this.clock(), error, attempts: (current?.attempts ?? 0) + 1 })
    this.onChange()
  }

  recovered (component: string): void {
    if (this.failures.delete(component)) this.onChange()
  }

  deadLettered (component: string): void {
    deadLetteredTotal.inc({ component })
    this.deadLetters.set(component, (this.deadLetters.get(component) ?? 0) + 1)
    this.onChange()
  }

  /** How many pieces of background work `component` has under way (0: none). */
  inProgress (component: string, n: number): void {
    if ((this.working.get(component) ?? 0) === n) return
    if (n === 0) this.working.delete(component)
    else this.working.set(component, n)
    this.onChange()
  }

  report (): HealthReport {
    const failing = [...this.failures.values()]
    const deadLettered = Object.fromEntries(this.deadLetters)
    const inProgress = Object.fromEntries(this.working)
    const add = (into: Record<string, number>, from: Record<string, number> | undefined) => {
      for (const [component, n] of Object.entries(from ?? {})) into[component] = (into[component] ?? 0) + n
    }
    for (const other of this.others) {
      const r = other()
      if (r === undefined) continue
      failing.push(...r.failing)
      add(deadLettered, r.dead_lettered)
      add(inProgress, r.in_progress)
    }
    return { status: failing.length > 0 ? 'degraded' : 'ok', failing, dead_lettered: deadLettered, in_progress: inProgress }
  }
}
