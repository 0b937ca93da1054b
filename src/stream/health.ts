/**
 * What is failing in this process's pipeline right now (the outbox relay, a consumer group), and how many
 * records each has dead-lettered since start. GET /healthz reports `degraded` while anything is failing.
 */
export interface HealthReport { status: 'ok' | 'degraded', failing: Failure[], dead_lettered: Record<string, number> }

export interface Failure { component: string, since_ms: number, error: string, attempts: number }

export class PipelineHealth {
  private readonly failures = new Map<string, Failure>()
  private readonly deadLetters = new Map<string, number>()

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
    this.deadLetters.set(component, (this.deadLetters.get(component) ?? 0) + 1)
    this.onChange()
  }

  report (): HealthReport {
    const failing = [...this.failures.values()]
    const deadLettered = Object.fromEntries(this.deadLetters)
    for (const other of this.others) {
      const r = other()
      if (r === undefined) continue
      failing.push(...r.failing)
      for (const [component, n] of Object.entries(r.dead_lettered)) deadLettered[component] = (deadLettered[component] ?? 0) + n
    }
    return { status: failing.length > 0 ? 'degraded' : 'ok', failing, dead_lettered: deadLettered }
  }
}
