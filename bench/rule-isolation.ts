/**
 * Rule isolation (issue 33, item 1): live p99 at a fixed offered rate, while a sandbox key of the same tenant
 * sends the issue's hostile inputs and backtests one a second: with the sandbox's default rules only, and with
 * every hostile rule of the issue installed (those the cost limit refuses are shown refused; the saved ones are
 * enabled and disabled between phases). One service, one run, phases alternating (default, hostile, default,
 * hostile) so that drift of a shared machine falls on both; the target is a live p99 that moves by less than
 * 5 ms. Before the load: the time per cost unit of the costliest admitted rules, in process (the calibration of
 * src/domain/rules/cost.ts).
 *   npm run bench:rule-isolation   (BENCH_RATE=200 live req/s, BENCH_SANDBOX_RATE=20, BENCH_SECONDS=10 per phase)
 */
import { activation, compileRule } from '../src/domain/rules/language.js'
import { AUTH, KEY, offer, scoreBodies, startService, type LoadResult } from './load.js'

const rate = Number(process.env.BENCH_RATE ?? 200)
const sandboxRate = Number(process.env.BENCH_SANDBOX_RATE ?? 20)
const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const LIVE_KEY = 'sk_live_benchmarkkey000000000000'
const LIVE = { authorization: `Bearer ${LIVE_KEY}` }

const wideMap = Object.fromEntries(Array.from({ length: 990 }, (_, i) => [`k${i}`, i]))
const hundred = Array.from({ length: 100 }, (_, i) => i)
/** The issue's hostile inputs, in turn: the regex input, the 100-item array, a 990-key map. */
const hostileBodies = [
  { event: 'payment', amount: 20, user_id: 'a'.repeat(40) + '!' },
  { event: 'payment', amount: 20, user_id: 'u-array', a: hundred },
  { event: 'payment', amount: 20, user_id: 'u-map', m: wideMap }
].map(b => JSON.stringify(b))

/** The issue's rules, and the costliest kind the limit admits (a dozen fill the runtime budget). */
const HOSTILE_RULES: Array<[string, string]> = [
  ['hostile_regex', 'request.user_id.matches("^(a+)+$")'],
  ['hostile_nested_exists', 'custom.a.exists(x, custom.a.exists(y, custom.a.exists(z, x == y + z + 1000)))'],
  ['hostile_cube_map', 'custom.a.map(x, custom.a.map(y, custom.a.map(z, 1))).size() > 0'],
  ...Array.from({ length: 12 }, (_, i): [string, string] => [`hostile_heavy_${String(i).padStart(2, '0')}`, `custom.m.exists(k, custom.m[k].v${i} > 1.0)`])
]

// 1. Calibration: measured time per estimated cost unit of admitted rules on their worst input.
const calibrate = (expression: string, custom: Record<string, unknown>, userId = 'u') => {
  const rule = compileRule(expression)
  const bound = activation({ request: { event: 'payment', user_id: userId, custom }, features: {}, signals: {}, lists: {} })
  for (let i = 0; i < 5; i++) rule.evaluate(bound)
  let best = Infinity
  for (let round = 0; round < 5; round++) {
    const start = performance.now()
    for (let i = 0; i < 10; i++) rule.evaluate(bound)
    best = Math.min(best, (performance.now() - start) / 10)
  }
  return { expression, units: rule.cost, ms: best, nsPerUnit: best * 1e6 / rule.cost }
}
const calibration = [
  calibrate('custom.m.exists(k, custom.m[k].v0 > 1.0)', { m: wideMap }),
  calibrate('custom.items.exists(x, x.price > 100.0 && x.qty > 2)', { items: Array.from({ length: 1000 }, (_, i) => i) }),
  calibrate('custom.note.matches("^(a+)+$")', { note: 'a'.repeat(8191) + '!' }),
  calibrate('custom.note.matches("^(a|aa)+$")', { note: 'a'.repeat(8191) + '!' }),
  calibrate('custom.s.split(",").exists(x, x == "a")', { s: ','.repeat(8191) }),
  calibrate('request.user_id.matches("^(a+)+$")', {}, 'a'.repeat(255) + '!')
]

// 2. The service: a sandbox and a live key of one tenant.
const service = await startService({ BOOTSTRAP_API_KEYS: `${KEY},${LIVE_KEY}` })
const liveBodies = scoreBodies(20_000, 5_000)
const post = async (path: string, body: object, headers = AUTH) => {
  const res = await fetch(`${service.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
  return { status: res.status, json: await res.json() as Record<string, any> }
}

/** Backtests of `expression` by the sandbox key, one a second, until `until` resolves; their latencies. */
async function backtesting (expression: string, until: Promise<unknown>): Promise<number[]> {
  let done = false
  void until.then(() => { done = true })
  const ms: number[] = []
  while (!done) {
    const now = Math.floor(Date.now() / 1000)
    const started = performance.now()
    const res = await post('/v1/rules/hostile_regex/backtest', { expression, from: now - 3600, to: now + 60 })
    if (res.status !== 200) throw new Error(`backtest answered ${res.status}: ${JSON.stringify(res.json)}`)
    ms.push(performance.now() - started)
    await new Promise(resolve => setTimeout(resolve, Math.max(0, 1000 - (performance.now() - started))))
  }
  return ms
}

async function phase (backtestExpression: string): Promise<{ live: LoadResult, sandbox: LoadResult, backtests: number[] }> {
  const live = offer(`${service.url}/v1/score`, LIVE, liveBodies, { seconds, connections: 16, rate })
  const sandbox = offer(`${service.url}/v1/score`, AUTH, hostileBodies, { seconds, connections: 4, rate: sandboxRate })
  const backtests = backtesting(backtestExpression, Promise.all([live, sandbox]))
  return { live: await live, sandbox: await sandbox, backtests: await backtests }
}

// Warm-up, and sandbox decisions for the backtests to read.
await offer(`${service.url}/v1/score`, LIVE, liveBodies, { seconds: 3, connections: 16, rate })
await offer(`${service.url}/v1/score`, AUTH, hostileBodies, { seconds: 3, connections: 4, rate: sandboxRate })

const saved: string[] = []
const installed: string[] = []
for (const [id, expression] of HOSTILE_RULES) {
  const res = await post('/v1/rules', { id, name: id, expression, action: 'flag', status: 'disabled' })
  if (res.status === 200) installed.push(id)
  saved.push(`  ${id.padEnd(24)} ${res.status === 200 ? 'saved' : `refused ${res.status} ${res.json.error.code}: ${String(res.json.error.message).slice(0, 110)}...`}`)
}
const setHostile = async (status: 'active' | 'disabled') => { for (const id of installed) await post('/v1/rules', { id, status }) }
const runs: { before: Awaited<ReturnType<typeof phase>>[], after: Awaited<ReturnType<typeof phase>>[] } = { before: [], after: [] }
for (let round = 0; round < 2; round++) {
  runs.before.push(await phase('request.user_id.startsWith("a")'))
  await setHostile('active')
  runs.after.push(await phase(HOSTILE_RULES[0]![1]))
  await setHostile('disabled')
}
const merged = (rs: typeof runs.before) => ({ live: rs.map(r => r.live), sandbox: rs.map(r => r.sandbox), backtests: rs.flatMap(r => r.backtests) })
const before = merged(runs.before)
const after = merged(runs.after)
const health = await (await fetch(`${service.url}/healthz`)).json() as { status: string }
service.child.kill('SIGTERM')

const pct = (xs: number[], p: number) => xs.length === 0 ? 0 : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!
const row = (name: string, r: { live: LoadResult[], sandbox: LoadResult[], backtests: number[] }) => {
  const each = (f: (l: LoadResult) => number) => r.live.map(f).map(v => v.toFixed(1)).join(' / ')
  return `${name.padEnd(22)} ${each(l => l.rps).padStart(13)} ${each(l => l.p50).padStart(13)} ${each(l => l.p99).padStart(13)} ${each(l => l.p999).padStart(13)} ${String(r.live.reduce((n, l) => n + l.non2xx + l.errors, 0)).padStart(6)}   ${r.sandbox.map(l => l.p99.toFixed(1)).join(' / ').padStart(13)}   ${String(r.backtests.length).padStart(5)} ${pct(r.backtests, 0.5).toFixed(0).padStart(6)}`
}

console.log(`\nrule isolation: node ${process.version}, live ${rate} req/s and sandbox ${sandboxRate} req/s offered for ${seconds} s per phase (open loop), a backtest a second`)
console.log('cost calibration (admitted rules on their worst input, best of 5):')
for (const c of calibration) console.log(`  ${c.expression.padEnd(56)} ${String(c.units).padStart(8)} units ${c.ms.toFixed(3).padStart(8)} ms ${c.nsPerUnit.toFixed(1).padStart(6)} ns/unit`)
console.log('hostile sandbox rules:')
for (const line of saved) console.log(line)
console.log(`live figures of rounds 1 / 2:`)
console.log(`${'phase'.padEnd(22)} ${'live/s'.padStart(13)} ${'p50 ms'.padStart(13)} ${'p99 ms'.padStart(13)} ${'p99.9 ms'.padStart(13)} ${'errors'.padStart(6)}   ${'sandbox p99'.padStart(13)}   ${'bktst'.padStart(5)} ${'p50 ms'.padStart(6)}`)
console.log(row('default sandbox rules', before))
console.log(row('hostile sandbox rules', after))
const moves = before.live.map((b, i) => after.live[i]!.p99 - b.p99)
const moved = Math.max(...moves)
console.log(`live p99 moved by ${moves.map(m => m.toFixed(1)).join(' / ')} ms (hostile minus default, per round; target: less than 5 ms): ${moved < 5 ? 'met' : 'NOT met'}; /healthz ${health.status}`)
