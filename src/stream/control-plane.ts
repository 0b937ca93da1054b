import type { EventLog } from './eventlog/event-log.js'
import { newId } from '../domain/ids.js'
import type { Ruleset } from '../domain/decision/types.js'
import { initialRuleset, versionLabel, versionNumber } from '../domain/rules/ruleset-versions.js'
import { RulesetCache, type CompiledRuleset } from '../domain/rules/ruleset.js'
import { compileList } from '../domain/rules/lists.js'
import { itemsOf } from '../domain/rules/list-items.js'
import { prefixRange, stateKey, TAG } from '../stores/keys.js'
import type { StateDb } from '../stores/state-db.js'
import { scopeId, type Scope } from '../domain/scope.js'
import { LRUCache } from 'lru-cache'
import { scanJson } from '../stores/rocks.js'
import { appendConfirmed } from './confirmation.js'
import type { ProcessorRuntime } from './processor.js'
import { parseJson, View } from './view.js'
import type { BatchWrites } from './batch-writes.js'
import { itemRecordKeyOf, recordKeyOf, type ListItemChange, type RulesetVersion } from '../domain/records/rulesets.js'

export interface ActiveRuleset { number: number, ruleset: Ruleset, compiled: CompiledRuleset }

/** Where the active ruleset of a tenant and mode comes from (the control plane). */
export interface RulesetSource { activeRuleset(scope: Scope): Promise<ActiveRuleset> }

export class ChangeRejected extends Error {}

const versionKey = (tenant: string, mode: string, n: number) => stateKey(TAG.rulesetVersion, tenant, mode, String(n).padStart(10, '0'))
const activeKey = (scope: Scope) => stateKey(TAG.rulesetActive, scope.tenant, scope.mode)
const itemKey = (scope: Scope, alias: string, value: string) => stateKey(TAG.listItem, scope.tenant, scope.mode, alias, value)

/** What the state holds of one list item: its last change. */
interface StoredItem { alias: string, value: string, added: boolean }

/** A list item to add or remove (`ControlPlane.changeListItems`). */
export interface ItemChange { alias: string, value: string, op: ListItemChange['op'] }

/** The last change of each item, by list alias, of one tenant and mode. */
type ScopeItems = Map<string, Map<string, boolean>>

/**
 * Rulesets on every instance: proposals are appended to the compacted `rulesets` topic; every instance
 * consumes it in order, accepts version n only on top of n-1, stores accepted versions (history) and the
 * active one locally with the offset checkpoint in the same batch, and keeps the active compiled ruleset
 * in memory for the request path. A proposer waits for its own record to come back to learn if it won.
 * List items are their own changes on the same topic: each is stored on its own and joins the active
 * ruleset's list without a new version (a deny list that grows by a fraud disposition a minute stays cheap).
 */
export class ControlPlane {
  private readonly versions = new Map<string, ActiveRuleset>()
  private readonly items = new Map<string, ScopeItems>()
  private readonly active = new Map<string, ActiveRuleset>()
  private readonly compiled = new RulesetCache()
  /** Accepted versions read by label (rulesetAt), by scope and label: versions never change. */
  private readonly byLabel = new LRUCache<string, Ruleset>({ max: 256 })
  private readonly view: View<RulesetVersion | ListItemChange, boolean>

  private readonly state: StateDb
  private readonly log: EventLog

  constructor (runtime: ProcessorRuntime, private readonly topic: string, originId: string) {
    this.state = runtime.state
    this.log = runtime.log
    this.view = new View<RulesetVersion | ListItemChange, boolean>(runtime, topic, `control-plane-${originId}`, {
      decode: parseJson,
      apply: async (change, _record, writes) => {
        const accepted = 'kind' in change ? await this.applyItem(change, writes) : await this.applyVersion(change, writes)
        return [[change.proposal_id, accepted]]
      }
    })
  }

  private async applyVersion (version: RulesetVersion, writes: BatchWrites): Promise<boolean> {
    const scope = { tenant: version.tenant_id, mode: version.mode }
    const before = await this.version(scope)
    if (version.number !== before.number + 1) return false
    const value = Buffer.from(JSON.stringify(version))
    writes.put(versionKey(version.tenant_id, version.mode, version.number), value)
    writes.put(activeKey(scope), value)
    // A list this version deletes takes its items along: one created again later starts empty.
    const items = await this.scopeItems(scope)
    for (const [alias, changes] of items) {
      if (version.ruleset.lists[alias] !== undefined) continue
      for (const value of changes.keys()) writes.del(itemKey(scope, alias, value))
      items.delete(alias)
    }
    this.versions.set(scopeId(scope), { number: version.number, ruleset: version.ruleset, compiled: this.compiled.get(scopeId(scope), version.ruleset) })
    this.active.delete(scopeId(scope))
    return true
  }

  private async applyItem (change: ListItemChange, writes: BatchWrites): Promise<boolean> {
    const scope = { tenant: change.tenant_id, mode: change.mode }
    if ((await this.version(scope)).ruleset.lists[change.alias] === undefined) return false
    const items = await this.scopeItems(scope)
    const stored: StoredItem = { alias: change.alias, value: change.value, added: change.op === 'add' }
    writes.put(itemKey(scope, change.alias, change.value), Buffer.from(JSON.stringify(stored)))
    ;(items.get(change.alias) ?? items.set(change.alias, new Map()).get(change.alias)!).set(change.value, stored.added)
    this.active.delete(scopeId(scope))
    return true
  }

  start (): Promise<void> {
    return this.view.start()
  }

  /** Resolves once every change appended before the call is applied here (NotConfirmed after `timeoutMs`). */
  catchUp (timeoutMs?: number): Promise<void> {
    return this.view.catchUp(timeoutMs)
  }

  /** The active ruleset of a tenant and mode (version 0, the default, before any change), its lists with their items. */
  async activeRuleset (scope: Scope): Promise<ActiveRuleset> {
    const key = scopeId(scope)
    const hit = this.active.get(key)
    if (hit !== undefined) return hit
    await this.version(scope)
    const items = await this.scopeItems(scope)
    // Read again after the awaits: a change applied meanwhile replaced the version (and cleared `active`).
    const current = this.active.get(key) ?? withItems(this.versions.get(key)!, items)
    this.active.set(key, current)
    return current
  }

  /** The accepted version in force, its lists as the version holds them. */
  private async version (scope: Scope): Promise<ActiveRuleset> {
    const key = scopeId(scope)
    let hit = this.versions.get(key)
    if (hit === undefined) {
      const raw = await this.state.get(activeKey(scope))
      const version = raw === undefined ? undefined : JSON.parse(raw.toString()) as RulesetVersion
      const ruleset = version?.ruleset ?? initialRuleset()
      hit = this.versions.get(key) ?? { number: version?.number ?? 0, ruleset, compiled: this.compiled.get(key, ruleset) }
      this.versions.set(key, hit)
    }
    return hit
  }

  /** The item changes of a tenant and mode, read from the state once. */
  private async scopeItems (scope: Scope): Promise<ScopeItems> {
    const key = scopeId(scope)
    const hit = this.items.get(key)
    if (hit !== undefined) return hit
    const loaded: ScopeItems = new Map()
    const [gte, lt] = prefixRange(TAG.listItem, scope.tenant, scope.mode)
    for await (const item of scanJson<StoredItem>(this.state.db, gte, lt)) {
      (loaded.get(item.alias) ?? loaded.set(item.alias, new Map()).get(item.alias)!).set(item.value, item.added)
    }
    return this.items.get(key) ?? this.items.set(key, loaded).get(key)!
  }

  /**
   * The ruleset of version `label` as it was accepted (its lists without later item changes), or undefined when
   * this instance has not applied it (yet) or the label is not one of this scope's.
   */
  async rulesetAt (scope: Scope, label: string): Promise<Ruleset | undefined> {
    const key = `${scopeId(scope)}\u0000${label}`
    const hit = this.byLabel.get(key)
    if (hit !== undefined) return hit
    const n = versionNumber(label)
    if (n === undefined) return undefined
    let ruleset: Ruleset | undefined
    if (n === 0) ruleset = initialRuleset()
    else {
      const raw = await this.state.get(versionKey(scope.tenant, scope.mode, n))
      ruleset = raw === undefined ? undefined : (JSON.parse(raw.toString()) as RulesetVersion).ruleset
    }
    if (ruleset !== undefined) this.byLabel.set(key, ruleset)
    return ruleset
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
      const current = await this.version(scope) // its lists without the items added since: those stay their own changes
      const number = current.number + 1
      const ruleset = { ...change(structuredClone(current.ruleset)), version: versionLabel(number) }
      const version: RulesetVersion = { tenant_id: scope.tenant, mode: scope.mode, number, ruleset, created_ms: nowMs, actor, change: describe, proposal_id: newId('prp') }
      const outcome = this.view.expect(version.proposal_id)
      outcome.catch(() => {})
      await appendConfirmed(this.log, this.topic, [{ key: recordKeyOf(version), partitionKey: `${scope.tenant}:${scope.mode}`, value: Buffer.from(JSON.stringify(version)), headers: { tenant_id: scope.tenant } }])
      if (await outcome) return version
    }
    throw new ChangeRejected('The ruleset changed concurrently too many times; retry the request.')
  }

  /**
   * Adds or removes list items, each its own change, and waits until the log has ordered them: one result per
   * change, false where the list did not exist when it was applied.
   */
  async changeListItems (scope: Scope, actor: string, items: readonly ItemChange[], nowMs: number): Promise<boolean[]> {
    const changes: ListItemChange[] = items.map(i => ({ kind: 'list_item', tenant_id: scope.tenant, mode: scope.mode, ...i, created_ms: nowMs, actor, proposal_id: newId('prp') }))
    const outcomes = changes.map(c => this.view.expect(c.proposal_id))
    for (const o of outcomes) o.catch(() => {})
    await appendConfirmed(this.log, this.topic, changes.map(c => ({ key: itemRecordKeyOf(c), partitionKey: `${scope.tenant}:${scope.mode}`, value: Buffer.from(JSON.stringify(c)), headers: { tenant_id: scope.tenant } })))
    return Promise.all(outcomes)
  }

  stop (): Promise<void> {
    return this.view.stop()
  }
}

/** A version with the item changes of its lists: the version itself when none has any. */
function withItems (version: ActiveRuleset, items: ScopeItems): ActiveRuleset {
  const changed = [...items].filter(([alias, changes]) => changes.size > 0 && version.ruleset.lists[alias] !== undefined)
  if (changed.length === 0) return version
  const lists = { ...version.ruleset.lists }
  const matchers = { ...version.compiled.lists }
  for (const [alias, changes] of changed) {
    lists[alias] = { ...lists[alias]!, items: itemsOf(lists[alias]!, changes) }
    matchers[alias] = compileList(lists[alias]!)
  }
  return { number: version.number, ruleset: { ...version.ruleset, lists }, compiled: { ...version.compiled, lists: matchers } }
}
