import type { Features, ScoreRequest } from './decision/types.js'
import { dimensionValue } from './features/velocity-spec.js'

/** Identifiers that tie accounts together. IPs are shared innocently (offices, carriers): they weigh less. */
export const LINK_KINDS = ['device', 'email', 'card', 'ip'] as const
export type LinkKind = typeof LINK_KINDS[number]
const WEIGHT: Record<LinkKind, number> = { device: 1, email: 1, card: 1, ip: 0.25 }

/** The graph as the check sees it: users seen with an identifier, and a user's identifiers, within the window. */
export interface LinkGraph {
  usersOf(kind: LinkKind, value: string): string[]
  identifiersOf(user: string): Array<[LinkKind, string]>
}

export interface LinkReport {
  check: 'link_analysis'
  score: number
  /** Other users sharing one of this event's identifiers. */
  linked_users: number
  /** Users reachable within two hops (through shared identifiers), this one included. */
  cluster_size: number
  shared: Record<LinkKind, number>
  patterns: Array<'shared_device' | 'shared_card' | 'mule_ring' | 'synthetic_identity'>
}

/** Enough to call a cluster a ring; two hops at most, and at most this many users explored. */
const RING_SIZE = 3
const MAX_CLUSTER = 500
/** Second-hop identifiers explored at most: a neighbourhood of hubs costs a bounded number of reads. */
const MAX_EXPLORED = 1000

/** The other users of each identifier the request names, in LINK_KINDS order. */
export function sharedWith (request: ScoreRequest, user: string, usersOf: LinkGraph['usersOf']): Array<[LinkKind, string[]]> {
  const shared: Array<[LinkKind, string[]]> = []
  for (const kind of LINK_KINDS) {
    const value = dimensionValue(request, kind)
    if (value !== undefined) shared.push([kind, usersOf(kind, value).filter(u => u !== user)])
  }
  return shared
}

/** The users a check ties to the request's user: those of its device, email and card (not of its IP), in that order. */
export function linkedUsers (shared: Array<[LinkKind, string[]]>): Set<string> {
  const linked = new Set<string>()
  for (const [kind, others] of shared) if (kind !== 'ip') for (const u of others) linked.add(u)
  return linked
}

/**
 * The second-hop identifiers a check explores, in order: each linked user's devices, emails and cards, while
 * the cluster (whose size `clusterSize` tells) is under MAX_CLUSTER and fewer than MAX_EXPLORED were explored.
 * The caller adds the users of each one to the cluster before asking for the next; the async-scorer walks it
 * the same way to read exactly the graph nodes the check reads.
 */
export function * secondHop (linked: Iterable<string>, identifiersOf: (user: string) => Array<[LinkKind, string]>, clusterSize: () => number): Generator<[LinkKind, string]> {
  let explored = 0
  for (const u of linked) {
    for (const [kind, value] of identifiersOf(u)) {
      if (kind === 'ip') continue
      if (clusterSize() >= MAX_CLUSTER || explored >= MAX_EXPLORED) return
      explored++
      yield [kind, value]
    }
  }
}

/**
 * Link analysis across users sharing devices, emails, cards and IPs: too slow for the inline path on a large
 * graph, run by the async-scorer topology. Pure over the graph it is given.
 */
export function linkAnalysis (request: ScoreRequest, features: Features, graph: LinkGraph): LinkReport | undefined {
  const user = request.user_id
  if (user === undefined) return undefined
  const others = sharedWith(request, user, (kind, value) => graph.usersOf(kind, value))
  const shared = { device: 0, email: 0, card: 0, ip: 0 }
  let weight = 0
  for (const [kind, users] of others) {
    shared[kind] = users.length
    weight += WEIGHT[kind] * users.length
  }
  const linked = linkedUsers(others)
  const cluster = new Set([user, ...linked])
  for (const [kind, value] of secondHop(linked, u => graph.identifiersOf(u), () => cluster.size)) {
    for (const v of graph.usersOf(kind, value)) cluster.add(v)
  }
  const patterns: LinkReport['patterns'] = []
  if (shared.device > 0) patterns.push('shared_device')
  if (shared.card > 0) patterns.push('shared_card')
  if (cluster.size >= RING_SIZE) patterns.push('mule_ring')
  const young = (features.account_age_known ?? 0) === 1 && (features.account_age_days ?? Infinity) < 30
  if ((young || (features.email_disposable ?? 0) === 1) && linked.size > 0) patterns.push('synthetic_identity')
  const logit = -3 + 1.2 * weight + 0.5 * Math.max(0, cluster.size - 2) + (patterns.includes('synthetic_identity') ? 1.5 : 0)
  const score = Math.round(10000 / (1 + Math.exp(-logit))) / 10000
  return { check: 'link_analysis', score, linked_users: linked.size, cluster_size: cluster.size, shared, patterns }
}
