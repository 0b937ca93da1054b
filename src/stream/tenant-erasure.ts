import type { Logger } from 'pino'
import { eraseTenantState } from '../stores/erasure.js'
import type { StoreDeclaration } from '../stores/named-store.js'
import type { StateDb } from '../stores/state-db.js'

/**
 * Erases deleted tenants' state on this instance, one at a time in the background (docs/operations.md#deleting-a-tenant).
 * Each erasure runs twice: at once, and again `settleMs` later, when every batch that was being processed as the
 * deletion arrived has committed (the deletion stops new records of the tenant: processors pass them over, its
 * keys are refused) and the velocity cache has written what it held. At start, every deleted tenant is erased
 * again: a crash during an erasure leaves nothing behind.
 */
export class TenantEraser {
  private queue: Promise<void> = Promise.resolve()
  private readonly timers = new Set<NodeJS.Timeout>()
  private pending = 0

  constructor (
    private readonly state: StateDb,
    private readonly stores: readonly StoreDeclaration[],
    private readonly memory: { flush(): Promise<void>, forget(tenant: string): void },
    private readonly logger: Logger,
    private readonly settleMs: number
  ) {}

  erase (tenant: string): void {
    this.run(tenant, 'erased')
    this.pending++
    const timer = setTimeout(() => { this.timers.delete(timer); this.run(tenant, 'erased again after in-flight batches settled'); this.pending-- }, this.settleMs)
    this.timers.add(timer)
  }

  private run (tenant: string, what: string): void {
    this.queue = this.queue.then(async () => {
      // What the velocity cache holds is written first (its journal entries go with it), then deleted below.
      await this.memory.flush()
      this.memory.forget(tenant)
      const deleted = await eraseTenantState(this.state, tenant, this.stores)
      this.logger.info({ tenant, deleted }, `tenant state ${what}`)
    }).catch((err: unknown) => { this.logger.error({ err, tenant }, 'tenant erasure failed; it runs again at the next start') })
  }

  /** Resolves once every erasure asked for so far has run both passes. */
  async idle (): Promise<void> {
    while (this.pending > 0) await new Promise(resolve => setTimeout(resolve, 20))
    await this.queue
  }

  async stop (): Promise<void> {
    for (const t of this.timers) clearTimeout(t)
    this.timers.clear()
    this.pending = 0
    await this.queue
  }
}
