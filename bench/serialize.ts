/**
 * What the response schemas (src/api/schemas/) do to serialization: fastify compiles each into a serializer
 * (fast-json-stringify), where a route without one uses JSON.stringify. Serializes answers shaped as the API's
 * (a transaction with its 60 features; a page of 100 cases) both ways, alternating rounds, and prints each
 * serializer's time as a ratio to JSON.stringify's in the same run.
 *   npm run bench:serialize   (BENCH_ROUNDS=5 BENCH_ITERATIONS=20000)
 */
import build from 'fast-json-stringify'
import { Case, CaseList } from '../src/api/schemas/cases.js'
import { Decision, Transaction } from '../src/api/schemas/decisions.js'
import type { Named } from '../src/api/schemas/named.js'

const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const iterations = Number(process.env.BENCH_ITERATIONS ?? 20_000)

const features = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`feature_${i}`, i / 7]))
const transaction = {
  object: 'transaction', id: 'trc_01m8dddcfc98mkzfw8c6s4pzrq', trace_id: 'trc_01m8dddcfc98mkzfw8c6s4pzrq', livemode: false, created: 1795700000, event: 'payment',
  request: { event: 'payment', amount: 4200, currency: 'EUR', user_id: 'u_123', ip: '203.0.113.7', email: 'a@example.com', custom: { card_fingerprint: 'fp_1' } },
  decision: { score: 0.71, risk_level: 'medium', action: 'flag', signals: ['velocity_high', 'new_device'], rules: ['amount_over_10000'], trace_id: 'trc_01m8dddcfc98mkzfw8c6s4pzrq', latency_ms: 3, counterfactual: { action: 'approve', changes: [{ field: 'amount', from: 4200, to: 900 }] } },
  evaluation: { ruleset_version: 'rs_3', model_version: 'trees-4', base_action: 'flag', override_gate: null, rule_errors: [], rollout_buckets: { pack: 41.5 }, features }
}
const oneCase = (i: number) => ({
  object: 'case', id: `case_${i}`, livemode: false, trace_id: `trc_${i}`, status: 'open', outcome: null, assignee: null, reason: 'flagged', opened_by: 'rule',
  rules: ['amount_over_10000'], score: 0.7, subjects: { user_id: `u_${i}`, email: `u${i}@example.com` }, created: 1795700000 + i, updated: 1795700000 + i
})
const page = { object: 'list', url: '/v1/cases', has_more: true, data: Array.from({ length: 100 }, (_, i) => oneCase(i)) }

/** A serializer of `schema` as fastify builds one, the named schemas it refers to resolvable. */
const serializer = (schema: Named, refs: Named[]) => build({ $ref: `${schema.$id}#` }, { schema: Object.fromEntries(refs.map(r => [r.$id, r])) as never })

const cases = [
  { name: 'transaction (60 features)', value: transaction, fast: serializer(Transaction, [Transaction, Decision]) },
  { name: 'page of 100 cases', value: page, fast: serializer(CaseList, [CaseList, Case]) }
]

const time = (fn: () => unknown) => {
  const started = process.hrtime.bigint()
  for (let i = 0; i < iterations; i++) fn()
  return Number(process.hrtime.bigint() - started) / iterations / 1000
}

console.log(`node ${process.version}, ${rounds} rounds of ${iterations} serializations each, alternating`)
for (const c of cases) {
  if (JSON.stringify(JSON.parse(c.fast(c.value as never))) !== JSON.stringify(c.value)) throw new Error(`${c.name}: the schema's serializer changes the answer`)
  const plain: number[] = []
  const fast: number[] = []
  for (let r = 0; r < rounds; r++) {
    plain.push(time(() => JSON.stringify(c.value)))
    fast.push(time(() => c.fast(c.value as never)))
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  const [p, f] = [median(plain), median(fast)]
  console.log(`${c.name.padEnd(28)} JSON.stringify ${p.toFixed(2)} us, schema ${f.toFixed(2)} us: ${(f / p).toFixed(2)}x the time`)
}
