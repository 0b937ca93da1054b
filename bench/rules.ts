/**
 * Evaluation cost of tenant rules (CEL): compile time and mean nanoseconds per evaluation for representative
 * rules, plus a 20-rule ruleset evaluated as Stage 1 would.   npm run bench:rules
 */
import { activation, compileRule, type RuleInput } from '../src/domain/rules/language.js'

const input: RuleInput = {
  request: { event: 'payment', amount: 250, currency: 'EUR', user_id: 'u1', ip: '203.0.113.9', email: 'a@mailinator.com', geo: { country: 'NG' }, custom: { card_bin: '411111' } },
  features: { user_count_1h: 7, device_count_1h: 2, ip_count_1h: 30, email_count_1h: 1, user_count_24h: 12, user_sum_24h: 1800 },
  signals: { sim_swap_confidence: 0.92, ip_reputation_v3: 0.2 },
  lists: { blocked_countries: new Set(['NG', 'KP', 'IR', 'SY', 'CU']), vip_users: new Set(Array.from({ length: 1000 }, (_, i) => `vip${i}`)) }
}
const bound = activation(input)

const RULES = [
  'request.amount > 1000.0',
  'request.amount > 100.0 && request.currency != "USD"',
  'in_list("blocked_countries", geo.country)',
  'in_list("vip_users", request.user_id)',
  'velocity("user", "count", "1h") > 5.0',
  'velocity("user", "sum", "24h") > 5000.0 || velocity("ip", "count", "1h") > 20.0',
  'signals.sim_swap_confidence > 0.8 && request.event == "payout"',
  'has(request.device_id) && request.device_id == "d1"',
  'request.email.endsWith("@mailinator.com") && custom.card_bin.startsWith("4111")',
  'request.event in ["payment", "payout", "signup"] && signals.ip_reputation_v3 < 0.3'
]

const iterations = Number(process.env.BENCH_ITERATIONS ?? 200_000)
const time = (fn: () => void, n: number) => {
  const start = process.hrtime.bigint()
  for (let i = 0; i < n; i++) fn()
  return Number(process.hrtime.bigint() - start) / n
}

console.log(`node ${process.version}, ${iterations} evaluations per rule`)
console.log(`${'rule'.padEnd(90)} ${'compile us'.padStart(10)} ${'eval ns'.padStart(9)}`)
const compiled = RULES.map(expression => {
  const compileNs = time(() => compileRule(expression), 200)
  const rule = compileRule(expression)
  for (let i = 0; i < 10_000; i++) rule.evaluate(bound)
  const evalNs = time(() => rule.evaluate(bound), iterations)
  console.log(`${expression.padEnd(90)} ${(compileNs / 1000).toFixed(1).padStart(10)} ${evalNs.toFixed(0).padStart(9)}`)
  return rule
})
const ruleset = [...compiled, ...compiled]
const setNs = time(() => { const perRequest = activation(input); for (const r of ruleset) r.evaluate(perRequest) }, iterations / 10)
console.log(`ruleset of ${ruleset.length} rules: ${(setNs / 1000).toFixed(1)} us per request`)

// Regular expressions: RE2 (re2js, what matches() runs) against JavaScript's RegExp on ordinary patterns, each
// compiled once; and the whole rule against cel-js's own matches(), which builds a RegExp at every call.
const PATTERNS: Array<[string, string]> = [
  ['^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$', 'jane.doe+shop@mailinator.com'],
  ['mailinator|guerrillamail|10minutemail', 'jane.doe+shop@mailinator.com'],
  ['^4[0-9]{5}$', '411111'],
  ['^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-', '3f2c1a9e-7b4d-4e2a-9c1f-0d8e6b5a4c3b'],
  ['[0-9]{6,}', 'user_20260311_884213'],
  ['^(a+)+$', 'a'.repeat(20) + '!']
]
const { RE2JS } = await import('re2js')
const { Environment } = await import('@marcbachmann/cel-js')
const stock = new Environment().registerVariable('s', 'string')
const regexIterations = Math.max(1000, Math.floor(iterations / 4))
console.log(`\n${'pattern (input)'.padEnd(60)} ${'RegExp ns'.padStart(10)} ${'RE2 ns'.padStart(8)} ${'ratio'.padStart(6)} ${'cel-js rule ns'.padStart(15)} ${'RE2 rule ns'.padStart(12)} ${'ratio'.padStart(6)}`)
const ratios: number[] = []
for (const [pattern, s] of PATTERNS) {
  const js = new RegExp(pattern)
  const re2 = RE2JS.compile(pattern)
  // ^(a+)+$ backtracks 2^20 times in RegExp: measured over 3 calls only.
  const n = pattern === '^(a+)+$' ? 3 : regexIterations
  const jsNs = time(() => js.test(s), n)
  const re2Ns = time(() => re2.test(s), n)
  const expression = `s.matches(${JSON.stringify(pattern)})`
  const stockRule = stock.parse(expression)
  const ours = compileRule(`custom.s.matches(${JSON.stringify(pattern)})`)
  const oursBound = activation({ ...input, request: { ...input.request, custom: { s } } })
  const stockNs = time(() => stockRule({ s }), n)
  const oursNs = time(() => ours.evaluate(oursBound), n)
  if (pattern !== '^(a+)+$') ratios.push(re2Ns / jsNs)
  console.log(`${`${pattern} (${s.slice(0, 20)})`.slice(0, 60).padEnd(60)} ${jsNs.toFixed(0).padStart(10)} ${re2Ns.toFixed(0).padStart(8)} ${(re2Ns / jsNs).toFixed(1).padStart(6)} ${stockNs.toFixed(0).padStart(15)} ${oursNs.toFixed(0).padStart(12)} ${(oursNs / stockNs).toFixed(2).padStart(6)}`)
}
console.log(`RE2 / RegExp on the ordinary patterns (all but ^(a+)+$): ${Math.min(...ratios).toFixed(1)}x to ${Math.max(...ratios).toFixed(1)}x`)
