import type { BatchWrites } from '../batch-writes.js'
import { prefixRange, stateKey, TAG } from '../../stores/keys.js'
import type { StateDb } from '../../stores/state-db.js'
import { scopeId, type Scope } from '../../domain/scope.js'
import { scan } from '../../stores/rocks.js'
import { compiledModel, PRIOR, type ScoringModel } from '../../domain/model/model.js'
import type { ModelRecord } from '../../domain/records/models.js'
import type { PipelineHealth } from '../health.js'

// Active models under their own prefix: loading them at start reads one record per tenant and mode, not every version.
const activeKey = (scope: Scope) => stateKey(TAG.model, 'active', scope.tenant, scope.mode)
const versionKey = (scope: Scope, version: string) => stateKey(TAG.model, 'v', scope.tenant, scope.mode, version)
// The latest challenger of each tenant and mode (in shadow, or rejected), shown with the active model.
const challengerKey = (scope: Scope) => stateKey(TAG.model, 'challenger', scope.tenant, scope.mode)

/** Where a refused model is reported: an error log line and a failing `model-registry` on /healthz. */
export interface RefusalReport {
  logger: { error(o: object, msg: string): void }
  health: Pick<PipelineHealth, 'failing' | 'recovered'>
}

const COMPONENT = 'model-registry'

/**
 * The model each tenant scores with, in memory (the request path reads it without I/O), and every version
 * seen, in local state (re-evaluation). Loaded at start, then kept current by the models materializer.
 * A tenant without a published model scores with the global PRIOR.
 * A model is compiled over the code's inputs as it becomes active (by name, once: compiledModel); one naming an
 * input the code does not have is refused: logged, reported failing on /healthz, never scored with (the
 * tenant keeps the model it had, or the PRIOR at start).
 */
export class ModelRegistry {
  private readonly active = new Map<string, ModelRecord>()
  private readonly challengers = new Map<string, ModelRecord>()
  /** Scopes whose latest active model was refused, with why. */
  private readonly refused = new Map<string, string>()

  private constructor (private readonly state: StateDb, private readonly report?: RefusalReport) {}

  static async load (state: StateDb, report?: RefusalReport): Promise<ModelRegistry> {
    const registry = new ModelRegistry(state, report)
    for (const [prefix, into] of [['active', registry.active], ['challenger', registry.challengers]] as const) {
      const [gte, lt] = prefixRange(TAG.model, prefix)
      for await (const [, value] of scan(state.db, gte, lt)) {
        const record = JSON.parse(value.toString()) as ModelRecord
        if (into === registry.active && !registry.admits(record)) continue
        into.set(scopeId({ tenant: record.tenant_id, mode: record.mode }), record)
      }
    }
    return registry
  }

  /** Whether a model may score: compiled over the code's inputs, or refused and reported. */
  private admits (record: ModelRecord): boolean {
    const id = scopeId({ tenant: record.tenant_id, mode: record.mode })
    try {
      compiledModel(record.model)
    } catch (err) {
      this.refused.set(id, err instanceof Error ? err.message : String(err))
      this.report?.logger.error({ err, tenant_id: record.tenant_id, mode: record.mode, version: record.model.version }, 'model refused: it names inputs this code does not have')
      this.report?.health.failing(COMPONENT, err)
      return false
    }
    if (this.refused.delete(id) && this.refused.size === 0) this.report?.health.recovered(COMPONENT)
    return true
  }

  /** Why each scope's latest model was refused, by scope id. */
  refusals (): ReadonlyMap<string, string> {
    return this.refused
  }

  model (scope: Scope): ScoringModel {
    return this.active.get(scopeId(scope))?.model ?? PRIOR
  }

  record (scope: Scope): ModelRecord | undefined {
    return this.active.get(scopeId(scope))
  }

  /** The latest challenger: scoring in shadow (`role: challenger`), rejected, or promoted (then also active). */
  challenger (scope: Scope): ModelRecord | undefined {
    return this.challengers.get(scopeId(scope))
  }

  async version (scope: Scope, version: string): Promise<ScoringModel | undefined> {
    if (version === PRIOR.version) return PRIOR
    const raw = await this.state.get(versionKey(scope, version))
    return raw === undefined ? undefined : (JSON.parse(raw.toString()) as ModelRecord).model
  }

  /**
   * Stores a published version and makes it active unless the active one is newer (supersedes); a challenger or
   * a rejected one is only stored and shown, a promoted one (with its evaluation) is shown and made active.
   */
  apply (record: ModelRecord, writes: BatchWrites): void {
    const scope = { tenant: record.tenant_id, mode: record.mode }
    const value = Buffer.from(JSON.stringify(record))
    writes.put(versionKey(scope, record.model.version), value)
    if (record.role !== undefined || record.evaluation !== undefined) {
      writes.put(challengerKey(scope), value)
      this.challengers.set(scopeId(scope), record)
      if (record.role !== undefined) return
    }
    const current = this.active.get(scopeId(scope))
    if (current !== undefined && !supersedes(record, current)) return
    if (!this.admits(record)) return
    writes.put(activeKey(scope), value)
    this.active.set(scopeId(scope), record)
  }
}

/**
 * Whether a version replaces the active one: a rollback always; trees replace the linear model for good; among
 * trees the one trained through a later event time, among linear versions the one that learned from more labels.
 */
function supersedes (next: ModelRecord, active: ModelRecord): boolean {
  if (next.rollback === true) return true
  const nextTrees = next.model.kind === 'trees'
  if (nextTrees !== (active.model.kind === 'trees')) return nextTrees
  return nextTrees ? next.trained_through_ms >= active.trained_through_ms : next.trained >= active.trained
}
