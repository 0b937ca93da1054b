/**
 * The topology framework: what a topology is (its processors, the services it runs beside them, the named
 * stores it owns), what it is built from (TopologyContext), the settings topologies read, and how one is
 * started and stopped. Topologies themselves live in `topologies/` at the repository root, one folder each,
 * listed in `topologies/registry.ts`; the runner that consumes for their processors is processor.ts.
 */
import type { ConsumedRecord } from './eventlog/event-log.js'
import type { ControlPlane } from './control-plane.js'
import type { CommandOutcome } from '../stores/cases.js'
import type { View } from './view.js'
import type { TopicNames } from './topics.js'
import type { DecisionCodec } from './decision-codec.js'
import type { AuditLog } from './audit-log.js'
import type { ModelRegistry } from './views/model-registry.js'
import { ProcessorRunner, type Processor, type ProcessorRuntime } from './processor.js'
import type { TransactionRecord } from '../domain/records/decisions.js'
import type { LogRecord } from '../domain/records/log-record.js'
import type { CaseRecord } from '../domain/records/cases.js'
import type { WebhookRecord } from '../domain/records/webhooks.js'
import type { StoreDeclaration } from '../stores/named-store.js'

/**
 * When the model trainer retrains a tenant's trees: every `everyHours` of recorded time, on the labelled decisions of
 * the `windowDays` before the maturity horizon, once they hold `minFrauds` frauds; legitimate decisions sampled
 * at `negativeSamplePercent` (weighted back).
 */
export interface TreeTrainingSettings { everyHours: number, windowDays: number, minFrauds: number, negativeSamplePercent: number }

/** The settings topologies read (a part of the process configuration, app/config.ts). */
export interface TopologySettings {
  labelMaturityDays: number
  /** Decisions recorded more than this after their event time are not learned from (topologies/feedback). */
  lateEventHours: number
  modelPublishIntervalMs: number
  modelTrees: TreeTrainingSettings
  webhookTimeoutMs: number
  webhookCaFile?: string
  /** Hosts and address ranges webhook deliveries may reach besides public addresses (WEBHOOK_EGRESS_ALLOW). */
  webhookEgressAllow: readonly string[]
  webhookBackoffScale: number
}

/** What a topology is built from: the process's runtime (state, log, health) and the views it reads. */
export interface TopologyContext extends ProcessorRuntime {
  config: TopologySettings
  codec: DecisionCodec
  topics: TopicNames
  control: ControlPlane
  cases: View<CaseRecord, CommandOutcome>
  webhooks: View<WebhookRecord, WebhookRecord>
  audit: AuditLog
  clock: () => number
  /** The published model versions (the model trainer continues from its tenant's active one). */
  models: ModelRegistry
}

/** Something a topology runs beside its processors (the webhook dispatcher's retry loop). */
export interface Service { start(): void, stop(): Promise<void> }

/**
 * A topology: stream processors that run alone (`node dist/src/app/main.js topology <name>`, Kafka mode) or
 * inside the one-process service, on either EventLog transport. It declares its processors (input topics,
 * checkpointed state, process function) and the named stores it owns (stores/named-store.ts); the runner
 * (processor.ts) does the consuming.
 */
export interface Topology {
  name: string
  description: string
  /** The stores it owns: no other topology declares the same name or a prefix overlapping one of them. */
  stores: readonly StoreDeclaration[]
  build(ctx: TopologyContext): { processors: Array<Processor<any, any>>, services?: Service[] }
}

export interface RunningTopology { stop(): Promise<void> }

/**
 * Throws when two store declarations of `topologies` share a name, or a prefix (one prefix starting another:
 * their keys would mix), naming each clash; in one topology as between two.
 */
export function checkStores (topologies: readonly Topology[]): void {
  const declared = topologies.flatMap(t => t.stores.map(store => ({ topology: t.name, store })))
  const clashes: string[] = []
  declared.forEach((a, i) => {
    for (const b of declared.slice(i + 1)) {
      const what = a.store.name === b.store.name ? 'name' : a.store.prefix.startsWith(b.store.prefix) || b.store.prefix.startsWith(a.store.prefix) ? 'key prefix' : undefined
      if (what !== undefined) clashes.push(`${a.topology}'s store ${a.store.name} and ${b.topology}'s store ${b.store.name} share a ${what} (${JSON.stringify(a.store.prefix)}, ${JSON.stringify(b.store.prefix)})`)
    }
  })
  if (clashes.length > 0) throw new Error(`topology stores clash: ${clashes.join('; ')}`)
}

/** Every store the registry's topologies declare (erasing a tenant reaches each: stores/erasure.ts). */
export const declaredStores = (registry: Readonly<Record<string, Topology>>): StoreDeclaration[] => Object.values(registry).flatMap(t => [...t.stores])

/**
 * Starts the topologies of `registry` named in `names`, after checking the stores the whole registry declares
 * (checkStores): a clash is refused at start even between topologies that run in different processes.
 */
export async function startTopologies (registry: Readonly<Record<string, Topology>>, names: readonly string[], ctx: TopologyContext): Promise<RunningTopology> {
  checkStores(Object.values(registry))
  const unknown = names.find(n => registry[n] === undefined)
  if (unknown !== undefined) throw new Error(`unknown topology '${unknown}'; available: ${Object.keys(registry).join(', ')}`)
  const running = await Promise.all(names.map(n => startTopology(registry[n]!, ctx)))
  // Consumers leave their groups concurrently: one at a time, a Kafka process with many takes long to stop.
  return { async stop () { await Promise.all(running.map(t => t.stop())) } }
}

/** Starts one topology: its processors and services log through a child logger bound to its name. */
export async function startTopology (topology: Topology, shared: TopologyContext): Promise<RunningTopology> {
  const ctx: TopologyContext = { ...shared, logger: shared.logger.child({ topology: topology.name }) }
  const { processors, services = [] } = topology.build(ctx)
  const runners = processors.map(p => new ProcessorRunner(ctx, p))
  for (const r of runners) await r.start()
  for (const s of services) s.start()
  return {
    async stop () {
      await Promise.all(runners.map(r => r.stop()))
      await Promise.all(services.map(s => s.stop()))
    }
  }
}

/**
 * A stateless processor: one consumer group over `topic`, each record mapped to the records it causes,
 * appended to `target`. At-least-once; what it writes carries ids stable across replays.
 */
export function mapTopic<T> (ctx: TopologyContext, group: string, topic: string | string[], target: string, decode: (r: ConsumedRecord) => T | Promise<T>, map: (value: T) => LogRecord[]): Processor<T> {
  return {
    group: `${ctx.topics.prefix}${group}`,
    topics: Array.isArray(topic) ? topic : [topic],
    decode,
    process: (value, _record, batch) => { for (const out of map(value)) batch.emit(target, out) }
  }
}

/** mapTopic over every cell's decisions, each record decoded with the decision codec. */
export function mapDecisions (ctx: TopologyContext, group: string, target: string, map: (d: TransactionRecord) => LogRecord[]): Processor<TransactionRecord> {
  return mapTopic(ctx, group, ctx.topics.allDecisions, target, r => ctx.codec.decode(r.topic, r.value, r.key), map)
}
