import { prefixRange, rangeAfter, stateKey, TAG, textRange } from './keys.js'
import { scan, scanJson } from './rocks.js'
import type { StateDb } from './state-db.js'
import type { WriteOp } from './rocks.js'
import type { StoreDeclaration } from './named-store.js'
import type { LogRecord } from '../domain/records/log-record.js'
import type { ApiKeyRecord } from '../domain/records/api-keys.js'
import type { DashboardSession } from '../domain/records/dashboard-sessions.js'
import type { DashboardUser } from '../domain/records/dashboard-users.js'

/**
 * Every key space of the local state whose keys name the tenant right after these leading parts (stores/keys.ts):
 * erasing a tenant deletes each one's [parts..., tenant] range. A store added under a new tag is added here;
 * the erasure test scans the whole store for the tenant's id, so a store left out fails it.
 */
const TENANT_SCOPED: ReadonlyArray<readonly string[]> = [
  [TAG.transaction], [TAG.transactionBySubject], [TAG.deviceSeen], [TAG.override], [TAG.overrideById],
  [TAG.rulesetVersion], [TAG.rulesetActive], [TAG.listItem], [TAG.caseRecord], [TAG.caseByTrace], [TAG.caseGate], [TAG.caseUnclosed], [TAG.caseBySubject],
  [TAG.label], [TAG.webhook], [TAG.deliveryView], [TAG.deliveryIndex], [TAG.audit], [TAG.apiKeyById],
  [TAG.dashboardUser], [TAG.idempotency], [TAG.clientCa], [TAG.lastLocation], [TAG.asyncCheck],
  [TAG.signal, 'ip_reputation'], [TAG.signal, 'sim_swap'],
  [TAG.model, 'active'], [TAG.model, 'challenger'], [TAG.model, 'v'], [TAG.compactedKey]
]

/** Keys deleted a write: an erasure of any size runs as many small writes, the event loop free between them. */
const CHUNK = 1_000

/**
 * Deletes everything this instance's state holds of a tenant, in chunks through the group committer (so no write
 * of the erasure waits behind, or holds up, more than one group commit). Idempotent: run again, it finds nothing.
 * Returns how many keys it deleted.
 */
export async function eraseTenantState (state: StateDb, tenant: string, stores: readonly StoreDeclaration[] = []): Promise<number> {
  let deleted = await deleteDerived(state, tenant)
  const ranges = [
    ...TENANT_SCOPED.map(parts => prefixRange(parts[0]!, ...parts.slice(1), tenant)),
    ...stores.filter(s => s.tenantFirst === true).map(s => textRange(`${s.prefix}${tenant}\u0000`))
  ]
  for (const [gte, lt] of ranges) deleted += await deleteWhere(state, gte, lt, undefined, () => true)
  for (const s of stores) {
    const tenantOf = s.tenantOf
    if (tenantOf !== undefined) deleted += await deleteWhere(state, ...textRange(s.prefix), undefined, value => tenantOf(value) === tenant)
  }
  const [gte, lt] = prefixRange(TAG.velocity, tenant)
  deleted += await deleteWhere(state, gte, lt, state.velocity, () => true)
  return deleted
}

/** Deletes the keys of [gte, lt) whose value `matches`, CHUNK keys read at a time. */
async function deleteWhere (state: StateDb, gte: Buffer, lt: Buffer, column: unknown, matches: (value: Buffer) => boolean): Promise<number> {
  let deleted = 0
  let from = gte
  while (true) {
    const ops: WriteOp[] = []
    let last: Buffer | undefined
    for await (const [key, value] of scan(state.db, from, lt, { column, limit: CHUNK })) {
      last = key
      if (matches(value)) ops.push(column === undefined ? { type: 'del', key } : { type: 'del', key, column })
    }
    if (last === undefined) return deleted
    if (ops.length > 0) await state.committer.commit(ops)
    deleted += ops.length
    from = rangeAfter([gte, lt], last)[0]
  }
}

/**
 * A tombstone (an empty value, the tenant in its header) for every key the tenant has on the compacted topics,
 * from the index processors keep of them (stream/middleware.ts, keyIndexed): once the log compacts, nothing of
 * the tenant is left on those topics. By topic name.
 */
export async function tombstonesOf (state: StateDb, tenant: string): Promise<Map<string, LogRecord[]>> {
  const byTopic = new Map<string, LogRecord[]>()
  const [gte, lt] = prefixRange(TAG.compactedKey, tenant)
  for await (const [key, partition] of scan(state.db, gte, lt)) {
    const [, , topic, recordKey] = key.toString().split('\u0000')
    let records = byTopic.get(topic!)
    if (records === undefined) byTopic.set(topic!, records = [])
    records.push({ key: recordKey!, partition: Number(partition.toString()), value: EMPTY, headers: { tenant_id: tenant } })
  }
  return byTopic
}
const EMPTY = new Uint8Array(0)

/**
 * Keys that do not start with the tenant, found from the tenant's own records: its API keys by secret hash, its
 * users by email; and its dashboard sessions, keyed by session id (a scan of the sessions, which expire).
 */
async function deleteDerived (state: StateDb, tenant: string): Promise<number> {
  const ops: WriteOp[] = []
  const [kg, kl] = prefixRange(TAG.apiKeyById, tenant)
  for await (const k of scanJson<ApiKeyRecord>(state.db, kg, kl)) if (k.secret_hash !== undefined) ops.push({ type: 'del', key: stateKey(TAG.apiKey, k.secret_hash) })
  const [ug, ul] = prefixRange(TAG.dashboardUser, tenant)
  for await (const u of scanJson<DashboardUser>(state.db, ug, ul)) ops.push({ type: 'del', key: stateKey(TAG.dashboardUserByEmail, u.email, tenant) })
  const [sg, sl] = prefixRange(TAG.dashboardSession)
  for await (const [key, value] of scan(state.db, sg, sl)) if ((JSON.parse(value.toString()) as DashboardSession).tenant_id === tenant) ops.push({ type: 'del', key })
  for (let i = 0; i < ops.length; i += CHUNK) await state.committer.commit(ops.slice(i, i + CHUNK))
  return ops.length
}
