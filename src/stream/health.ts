/**
 * What is failing in this process's pipeline right now (the outbox relay, a consumer group), and how many
 * records each has dead-lettered since start. GET /healthz reports `degraded` while anything is failing.
 */
export interface Failure { component: string, since_ms: number, error: string, attempts: number }

export class PipelineHealth {
  private readonly failures = new Map<string, Failure>()
  private readonly deadLetters = new Map<string, number>()

  constructor (private readonly clock: () => number = Date.now) {}

  failing (component: string, err: unknown): void {
    const current = this.failures.get(component)
    const error = err instanceof Error ? err.message : String(err)
    this.failures.set(component, { component, since_ms: current?.since_ms ?? this.clock(), error, attempts: (current?.attempts ?? 0) + 1 })
  }

  recovered (component: string): void {
    this.failures.delete(component)
  }

  deadLettered (component: string): void {
    this.deadLetters.set(component, (this.deadLetters.get(component) ?? 0) + 1)
  }

  get degraded (): boolean {
    return this.failures.size > 0
  }

  report (): { status: 'ok' | 'degraded', failing: Failure[], dead_lettered: Record<string, number> } {
    return { status: this.degraded ? 'degraded' : 'ok', failing: [...this.failures.values()], dead_lettered: Object.fromEntries(this.deadLetters) }
  }
}
