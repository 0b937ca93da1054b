import { LINK_KINDS, linkAnalysis, linkedUsers, secondHop, sharedWith, type LinkGraph, type LinkKind } from '../../src/domain/link-analysis.js'
import type { BatchWrites } from '../../src/stream/batch-writes.js'
import type { Processor } from '../../src/stream/processor.js'
import { scopeOf, type Scope } from '../../src/domain/scope.js'
import { dimensionValue } from '../../src/domain/features/velocity-spec.js'
import type { Topology } from '../../src/stream/topology.js'
import type { TransactionRecord } from '../../src/domain/records/decisions.js'
import { stableEventId, type ServiceEvent, eventRecord } from '../../src/domain/records/events.js'
import { byTenant, sourceTopic } from '../../src/stream/repartition.js'
import { LRUCache } from 'lru-cache'
import { seen, type Links } from '../../src/stores/velocity/index.js'
import { BatchGraph, identifierId, identifierLink, identifierOfLink, LINK_GRAPH, userId, type GraphNode } from './graph-store.js'

/** Links older than this (event time) are forgotten; each node keeps its most recent LINKS_KEPT links. */
const WINDOW_MS = 30 * 86_400_000
const LINKS_KEPT = 256

/**
 * Graph nodes kept between batches, the most recently used NODES_KEPT (graph-store.ts). Only where one consumer
 * owns every partition for good (the embedded log): on Kafka, partitions move between instances with no say here.
 */
const NODES_KEPT = 20_000
/** Second-hop nodes read in one multi-get (about 4 us a key in batches against 6 us one at a time). */
const SECOND_HOP_READ = 16

/** The graph nodes one decision reads and writes, loaded before the (synchronous) check runs. */
class GraphSlice implements LinkGraph {
  private readonly nodes = new Map<string, { links: Links, changed: boolean }>()
  constructor (private readonly scope: Scope, private readonly graph: BatchGraph, private readonly writes: BatchWrites, private readonly nowMs: number) {}

  /** Reads the nodes of `ids` into this slice, in one multi-get for those the batch has not read yet. */
  private async read (ids: string[]): Promise<void> {
    const nodes = await this.graph.load(this.writes, ids)
    ids.forEach((id, i) => this.nodes.set(id, nodes[i]!))
  }

  private live (links: Links | undefined): string[] {
    const live: string[] = []
    if (links !== undefined) for (const [member, seen] of links) if (seen > this.nowMs - WINDOW_MS) live.push(member)
    return live
  }

  /**
   * What linkAnalysis reads, two hops from the request's identifiers: their users; the other users of its
   * device, email and card (not of its IP: shared innocently, it does not tie accounts) and their identifiers;
   * and the users of those identifiers, in the order and within the bounds of the check (secondHop). The
   * user's own node is read for the links the decision adds.
   */
  async load (request: TransactionRecord['request']): Promise<void> {
    const user = request.user_id
    const first: string[] = []
    for (const kind of LINK_KINDS) {
      const value = dimensionValue(request, kind)
      if (value !== undefined) first.push(identifierId(this.scope, kind, value))
    }
    if (user !== undefined) first.push(userId(this.scope, user))
    await this.read(first)
    if (user === undefined) return
    const linked = linkedUsers(sharedWith(request, user, (kind, value) => this.usersOf(kind, value)))
    await this.read([...linked].map(u => userId(this.scope, u)))
    // The walk's identifiers are read SECOND_HOP_READ at a time ahead of it, from the same sequence unbounded by
    // the cluster's size (taken only as far as read): a walk that stops early read fewer than that many nodes it
    // did not need.
    const ahead = secondHop(linked, u => this.identifiersOf(u), () => 0)
    const cluster = new Set([user, ...linked])
    let readAhead = 0
    for (const [kind, value] of secondHop(linked, u => this.identifiersOf(u), () => cluster.size)) {
      if (readAhead === 0) {
        const next: string[] = []
        // next(), not for-of: leaving a for-of early would close the generator.
        for (let r = ahead.next(); !r.done; r = ahead.next()) if (next.push(identifierId(this.scope, ...r.value)) === SECOND_HOP_READ) break
        await this.read(next)
        readAhead = next.length
      }
      readAhead--
      for (const v of this.live(this.nodes.get(identifierId(this.scope, kind, value))!.links)) cluster.add(v)
    }
  }

  usersOf (kind: LinkKind, value: string): string[] {
    return this.live(this.nodes.get(identifierId(this.scope, kind, value))?.links)
  }

  identifiersOf (user: string): Array<[LinkKind, string]> {
    return this.live(this.nodes.get(userId(this.scope, user))?.links).map(identifierOfLink)
  }

  /** Adds the decision's links (after the check: it describes the graph before the event). */
  async link (request: TransactionRecord['request'], atMs: number): Promise<void> {
    const user = request.user_id
    if (user === undefined) return
    const put = async (id: string, member: string) => {
      const node = await this.graph.node(this.writes, id)
      seen(node.links, member, atMs, LINKS_KEPT)
      node.changed = true
    }
    for (const kind of LINK_KINDS) {
      const value = dimensionValue(request, kind)
      if (value === undefined) continue
      await put(identifierId(this.scope, kind, value), user)
      await put(userId(this.scope, user), identifierLink(kind, value))
    }
  }
}

/** The `score.async` event of a decision's deferred check; its id derives from the trace id. Pure. */
export function scoreAsyncEvent (d: TransactionRecord, report: NonNullable<ReturnType<typeof linkAnalysis>>): ServiceEvent {
  return { id: stableEventId('score.async', d.trace_id, report.check), type: 'score.async', created: Math.floor(d.created_ms / 1000), livemode: d.livemode, data: { trace_id: d.trace_id, ...report } }
}

/**
 * The async-scorer topology: deferred deep checks on the decisions stream. Link analysis over a graph of users
 * and the devices, emails, cards and IPs they used (its own local state, 30 days by event time) finds accounts
 * tied together (mule rings, synthetic identities); a decision linked to at least one other user gets a
 * `score.async` event with its trace_id.
 *
 * The graph is checkpointed state: a redelivered record (the append or the offset commit after its batch
 * failed, or the process died in between) is not analysed again, since the graph already holds it and what
 * came after, so the check would describe another graph (new events for decisions that had none, different
 * ones under the same id). Its event, kept with the checkpoint, is appended again as it was: at worst the
 * same event (same id and content) twice on the topic, never a changed or an extra one.
 *
 * A check reads two hops of its tenant's graph, so a tenant's graph has one owner: decisions come through
 * the `async-scorer-by-tenant` repartition topic on Kafka (src/stream/repartition.ts), and N instances give the
 * results of one. A copy the repartition stage appended twice is analysed once.
 */
export const asyncScorer: Topology = {
  name: 'async-scorer',
  description: 'score.async events from link analysis (shared devices, emails, cards, IPs) on the decisions stream',
  stores: [LINK_GRAPH],
  build: ctx => {
    const { topics } = ctx
    const group = `${topics.prefix}async-scorer`
    const cache = ctx.log.kind === 'embedded' ? new LRUCache<string, GraphNode>({ max: NODES_KEPT }) : undefined
    // A tenant's graph has one owner: decisions reach the scorer by tenant.
    const scorer: Omit<Processor<TransactionRecord, BatchGraph>, 'topics'> = {
      group,
      checkpoint: ['async-scorer'],
      local: () => new BatchGraph(cache),
      decode: record => ctx.codec.decode(sourceTopic(record), record.value, record.key),
      async process (d, _record, batch) {
        if (d.request.user_id === undefined) return
        const slice = new GraphSlice(scopeOf(d), batch.local, batch.writes, d.created_ms)
        await slice.load(d.request)
        const report = linkAnalysis(d.request, d.features, slice)
        await slice.link(d.request, d.created_ms)
        if (report !== undefined && report.linked_users > 0) batch.emit(topics.events, eventRecord(d.tenant_id, scoreAsyncEvent(d, report)))
      },
      endBatch: ({ local, writes }) => local.write(writes)
    }
    return { processors: byTenant(ctx.log, `${topics.prefix}async-scorer-repartition`, topics.allDecisions, topics.asyncScorerByTenant, scorer) }
  }
}
