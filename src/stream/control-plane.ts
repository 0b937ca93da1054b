import type { EventLog } from './eventlog/event-log.js'
import { newId } from '../domain/ids.js'
import type { Ruleset } from '../domain/decision/types.js'
import { initialRuleset, versionLabel } from '../domain/rules/ruleset-versions.js'
import { RulesetCache, type CompiledRuleset } from '../domain/rules/ruleset.js'
import { prefixRange, stateKey, TAG } from '../stores/keys.js'
import type { StateDb } from '../stores/state-db.js'
import { scopeId, type Scope } from '../domain/scope.js'
import { scanJson } from '../stores/rocks.js'
import { appendConfirmed } from './confirmation.js'
import type { ProcessorRuntime } from './processor.js'
import { parseJson, View } from './view.js'
import { recordKeyOf, type RulesetVersion } from '../domain/records/rulesets.js'

export interface ActiveRuleset { number: number, ruleset: Ruleset, compiled: CompiledRuleset }

/** Where the active ruleset of a tenant and mode comes from (the control plane). */
export interface RulesetSource { activeRuleset(scope: Scope): Promise<ActiveRuleset> }

export class ChangeRejected extends Error {}

const versionKey = (tenant: string, mode: string, n: number) => stateKey(TAG.rulesetVersion, tenant, mode, String(n).padStart(10, '0'))
const activeKey = (scope: Scope) => stateKey(TAG.rulesetActive, scope.tenant, scope.mode)

/**
 * Rulesets on every instance: proposals are appended to the compacted `rulesets` topic; every instance
 * consumes it in order, accepts version n only on top of n-1, stores accepted versions (history) and the
 * active one locally with the offset checkpoint in the same batch, and keeps the active compiled ruleset
 * in memory for the request path. A proposer waits for its own record to come back to learn if it won.
 */
export class ControlPlane {
  private readonly active = new Map<string, ActiveRuleset>()
  private readonly compiled = new RulesetCache()
  private readonly view: View<RulesetVersion, boolean>

  private readonly state: StateDb
  private readonly log: EventLog

  constructor (runtime: ProcessorRuntime, private readonly topic: string, originId: string) {
    this.state = runtime.state
    this.log = runtime.log
    this.view = new View<RulesetVersion, boolean>(runtime, topic, `control-plane-${originId}`, {
      decode: parseJson,
      apply: async (version, _record, writes) => {
        const scope = { tenant: version.tenant_id, mode: version.mode }
        const accepted = version.number === (await this.activeRuleset(scope)).number + 1
        if (accepted) {
          const value = Buffer.from(JSON.stringify(version))
          writes.put(versionKey(version.tenant_id, version.mode, version.number), value)
          writes.put(activeKey(scope), value)
          this.active.set(scopeId(scope), { number: version.number, ruleset: version.ruleset, compiled: this.compiled.get(scopeId(scope), version.ruleset) })
        }
        return [[version.proposal_id, accepted]]
      }
    })
  }

  start (): Promise<void> {
    return this.view.start()
  }

  /** The active ruleset of a tenant and mode (version 0, the default, before any change). */
  async activeRuleset (scope: Scope): Promise<ActiveRuleset> {
    const key = scopeId(scope)
    let hit = this.active.get(key)
    if (hit === undefined) {
      const raw = await this.state.get(activeKey(scope))
      const version = raw === undefined ? undefined : JSON.parse(raw.toString()) as RulesetVersion
      const ruleset = version?.ruleset ?? initialRuleset()
      hit = this.active.get(key) ?? { number: version?.number ?? 0, ruleset, compiled: this.compiled.get(key, ruleset) }
      this.active.set(key, hit)
    }
    return hit
  }

  /** Accepted versions, oldest first. */
  async history (scope: Scope): Promise<RulesetVersion[]> {
    const [gte, lt] = prefixRange(TAG.rulesetVersion, scope.tenant, scope.mode)
    const out: RulesetVersion[] = []
    for await (const version of scanJson<RulesetVersion>(this.state.db, gte, lt)) out.push(version)
    return out
  }

  /**
   * Applies `change` to the active ruleset as a new version and waits until the log has ordered it.
   * When another instance's change got that version number first, the change is re-applied on top of it.
   */
  async propose (scope: Scope, actor: string, describe: RulesetVersion['change'], change: (current: Ruleset) => Ruleset, nowMs: number): Promise<RulesetVersion> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const current = await this.activeRuleset(scope)
      const number = current.number + 1
      const ruleset = { ...change(structuredClone(current.ruleset)), version: versionLabel(number) }
      const version: RulesetVersion = { tenant_id: scope.tenant, mode: scope.mode, number, ruleset, created_ms: nowMs, actor, change: describe, proposal_id: newId('prp') }
      const outcome = this.view.expect(version.proposal_id)
      outcome.catch(() => {})
      await appendConfirmed(this.log, this.topic, [{ key: recordKeyOf(version), partitionKey: `${scope.tenant}:${scope.mode}`, value: Buffer.from(JSON.stringify(version)) }])
      if (await outcome) return version
    }
    throw new ChangeRejected('The ruleset changed concurrently too many times; retry the request.')
  }

  stop (): Promise<void> {
    return this.view.stop()
  }
}
