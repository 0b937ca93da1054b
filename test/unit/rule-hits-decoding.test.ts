import { describe, expect, it } from 'vitest'
import { decisionHits, encodeEvent, type TransactionRecord } from '../../src/domain/records/decisions.js'
import { parseTransactionHits } from '../../src/stores/transactions.js'

const record: TransactionRecord = {
  trace_id: 'trc_01hits',
  tenant_id: 'ten_1',
  livemode: false,
  created_ms: 1_795_000_000_123,
  request: { event: 'payment', amount: 12.5, currency: 'EUR', user_id: 'u1', custom: { card_bin: '411111' } },
  decision: { score: 0.5, risk_level: 'medium', action: 'flag', signals: ['new_device'], rules: ['big_amount', 'new_country'], trace_id: 'trc_01hits', latency_ms: 2, shadow: { action: 'reject', rules: ['r_new'] } },
  ruleset_version: 'rs_12',
  model_version: 'prior-2026-11-22',
  features: { amount: 12.5, user_count_1h: 3 },
  base_action: 'flag',
  override_gate: null,
  rule_errors: [],
  rollout_buckets: { pack_a: 42.17, pack_b: 0 },
  origin_id: 'org_1',
  origin_seq: 7
}

describe('a stored decision read for its rule hits', () => {
  it('has its enforce and shadow rules, ruleset version and rollout buckets, as the whole record has them', () => {
    const expected = { ruleset_version: 'rs_12', rollout_buckets: { pack_a: 42.17, pack_b: 0 }, decision: { rules: ['big_amount', 'new_country'], shadow: { action: 'reject', rules: ['r_new'] } } }
    expect(decisionHits(encodeEvent(record))).toEqual(expected)
    expect(parseTransactionHits(Buffer.from(encodeEvent(record)))).toEqual(expected)
    const { shadow: _none, ...unshadowed } = record.decision
    expect(decisionHits(encodeEvent({ ...record, decision: unshadowed, rollout_buckets: {} }))).toEqual({ ruleset_version: 'rs_12', rollout_buckets: {}, decision: { rules: ['big_amount', 'new_country'] } })
  })

  it('reads a record stored as JSON (before records were Protobuf) too', () => {
    expect(parseTransactionHits(Buffer.from(JSON.stringify(record)))).toMatchObject({ ruleset_version: 'rs_12', rollout_buckets: { pack_a: 42.17 }, decision: { rules: ['big_amount', 'new_country'] } })
  })
})
