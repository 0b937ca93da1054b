import { BlockList, isIP } from 'node:net'
import type { SimSwap } from '../domain/features/extract.js'
import { scan } from './rocks.js'
import { prefixRange, stateKey, TAG } from './keys.js'
import type { StateDb } from './state-db.js'
import { scopeId, type Scope } from '../domain/scope.js'
import type { StoreWrites } from './writes.js'
import type { SignalChange } from '../domain/records/signals.js'

/** The latest SIM swap reported for a user (read with the request's other point lookups). */
export const simSwapKey = (scope: Scope, userId: string) => stateKey(TAG.signal, 'sim_swap', scope.tenant, scope.mode, userId)
/** Type first: loading every tenant's reputation list at start reads no SIM-swap records. */
export const ipReputationKey = (scope: Scope, ip: string) => stateKey(TAG.signal, 'ip_reputation', scope.tenant, scope.mode, ip)

export const parseSimSwap = (raw: Buffer | undefined): SimSwap | undefined => raw === undefined ? undefined : JSON.parse(raw.toString()) as SimSwap

interface Ranges { bits: number, list: BlockList, score: number }
interface ScopeReputation { exact: Map<string, number>, ranges: Ranges[] }

const familyOf = (ip: string) => isIP(ip) === 6 ? 'ipv6' : 'ipv4'

/**
 * Every tenant's IP reputation list in memory: exact addresses in a map, CIDR ranges checked most specific
 * first (a linear scan: lists of a few thousand ranges cost microseconds). Loaded from local state when the
 * process starts, then kept current by the signals materializer, which writes state and this index together.
 */
export class IpReputationIndex {
  private readonly scopes = new Map<string, ScopeReputation>()

  static async load (state: StateDb): Promise<IpReputationIndex> {
    const index = new IpReputationIndex()
    const [gte, lt] = prefixRange(TAG.signal, 'ip_reputation')
    for await (const [key, value] of scan(state.db, gte, lt)) {
      const [tenant, mode, ip] = key.toString().split('\u0000').slice(2)
      index.set({ tenant: tenant!, mode: mode as Scope['mode'] }, ip!, (JSON.parse(value.toString()) as { score: number }).score)
    }
    return index
  }

  set (scope: Scope, ip: string, score: number | null): void {
    let s = this.scopes.get(scopeId(scope))
    if (s === undefined) this.scopes.set(scopeId(scope), s = { exact: new Map(), ranges: [] })
    const [address, bits] = ip.split('/')
    if (bits === undefined) {
      if (score === null) s.exact.delete(address!)
      else s.exact.set(address!, score)
      return
    }
    s.ranges = s.ranges.filter(r => !(r.bits === Number(bits) && r.list.check(address!, familyOf(address!))))
    if (score === null) return
    const list = new BlockList()
    list.addSubnet(address!, Number(bits), familyOf(address!))
    s.ranges.push({ bits: Number(bits), list, score })
    s.ranges.sort((a, b) => b.bits - a.bits)
  }

  /** The score of the most specific entry covering `ip`, if any. */
  lookup (scope: Scope, ip: string | undefined): number | undefined {
    if (ip === undefined) return undefined
    const s = this.scopes.get(scopeId(scope))
    if (s === undefined) return undefined
    const exact = s.exact.get(ip)
    if (exact !== undefined) return exact
    if (s.ranges.length === 0 || isIP(ip) === 0) return undefined
    const family = familyOf(ip)
    return s.ranges.find(r => r.list.check(ip, family))?.score
  }
}

/**
 * Applies a signal change: the latest SIM swap per user and the IP reputation list, in local state and, for
 * reputation, in the in-memory index the request path reads. A change older than the stored one (by at_ms)
 * for the same subject changes nothing.
 */
export async function applySignalChange (change: SignalChange, writes: StoreWrites, reputation: IpReputationIndex): Promise<void> {
  const scope = { tenant: change.tenant_id, mode: change.mode }
  const key = change.type === 'sim_swap' ? simSwapKey(scope, change.user_id) : ipReputationKey(scope, change.ip)
  const raw = await writes.get(key)
  if (raw !== undefined && (JSON.parse(raw.toString()) as { at_ms: number }).at_ms > change.at_ms) return
  if (change.type === 'sim_swap') {
    writes.put(key, Buffer.from(JSON.stringify({ confidence: change.confidence, at_ms: change.at_ms })))
  } else {
    if (change.score === null) writes.del(key)
    else writes.put(key, Buffer.from(JSON.stringify({ score: change.score, at_ms: change.at_ms })))
    reputation.set(scope, change.ip, change.score)
  }
}
