import type { LRUCache } from 'lru-cache'
import type { LinkKind } from '../../src/domain/link-analysis.js'
import type { Scope } from '../../src/domain/scope.js'
import { TAG } from '../../src/stores/keys.js'
import { tenantStore } from '../../src/stores/named-store.js'
import { decodeLinks, encodeLinks, type Links } from '../../src/stores/velocity/index.js'
import type { BatchWrites } from '../../src/stream/batch-writes.js'

/**
 * The async scorer's link graph: per tenant and mode, a node per user (`u`, the identifiers it used) and per
 * identifier (`i`, a device, email, card or IP and the users that used it), each link with the event time it
 * was last seen (src/stores/velocity/links.ts holds the encoding).
 */
export const LINK_GRAPH = tenantStore('async-scorer.link-graph', TAG.linkGraph)

/** A node's id: the text of its state key (its bytes are made only to read or write it). */
export const identifierId = (s: Scope, kind: LinkKind, value: string) => LINK_GRAPH.id(s.tenant, s.mode, 'i', kind, value)
export const userId = (s: Scope, user: string) => LINK_GRAPH.id(s.tenant, s.mode, 'u', user)

const SEP = '\u0000'
/** How a user's node names one of its identifiers. */
export const identifierLink = (kind: LinkKind, value: string) => `${kind}${SEP}${value}`
export const identifierOfLink = (link: string) => link.split(SEP) as [LinkKind, string]

/** A user's identifiers, or an identifier's users, each with the event time it was last seen. */
export interface GraphNode { id: string, links: Links, changed: boolean }

/**
 * Graph nodes kept between batches: they hold what the store holds once a batch that changed them is written;
 * a batch that failed empties it.
 */
export type NodeCache = LRUCache<string, GraphNode>

/**
 * The graph nodes a batch has read or changed: each read from the store (or the cache) once, changed in place
 * by the batch's decisions in order, and written once when the batch ends.
 */
export class BatchGraph {
  private readonly nodes = new Map<string, GraphNode>()
  constructor (private readonly cache: NodeCache | undefined) {}

  async node (writes: BatchWrites, id: string): Promise<GraphNode> {
    return this.nodes.get(id) ?? (await this.load(writes, [id]))[0]!
  }

  /** The nodes of `ids`, made nodes of this batch: those neither in it nor cached read in one multi-get. */
  async load (writes: BatchWrites, ids: string[]): Promise<GraphNode[]> {
    const absent = [...new Set(ids.filter(id => !this.nodes.has(id)))]
    if (absent.length > 0) await this.read(writes, absent)
    return ids.map(id => this.nodes.get(id)!)
  }

  private async read (writes: BatchWrites, ids: string[]): Promise<void> {
    const cache = this.cache
    // The cached nodes take this batch's changes as they are made: right once it is written, wrong if not.
    if (this.nodes.size === 0 && cache !== undefined) writes.append(() => [], written => { if (!written) cache.clear() })
    const cached = ids.map(id => cache?.get(id))
    const unread = ids.filter((_, i) => cached[i] === undefined)
    const raw = unread.length === 0 ? [] : await writes.getMany(unread.map(id => Buffer.from(id)))
    let next = 0
    ids.forEach((id, i) => {
      let node = cached[i]
      if (node === undefined) {
        node = { id, links: decodeLinks(raw[next++]), changed: false }
        cache?.set(id, node)
      }
      node.changed = false
      this.nodes.set(id, node)
    })
  }

  write (writes: BatchWrites): void {
    for (const node of this.nodes.values()) if (node.changed) writes.put(Buffer.from(node.id), encodeLinks(node.links))
  }
}
