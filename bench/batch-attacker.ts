/**
 * The sender of bench/batch-fairness.ts, in a process of its own: keeps BENCH_ATTACKERS of the largest batches the
 * API accepts in flight to BENCH_URL with BENCH_KEY until SIGTERM, then prints {ok, limited, other, bytes} as JSON.
 */
import { Pool } from 'undici'

const eventKeys = Number(process.env.BENCH_EVENT_KEYS ?? 90)
const attackers = Number(process.env.BENCH_ATTACKERS ?? 3)

export function hostileBatch (): string {
  return JSON.stringify({
    events: Array.from({ length: 500 }, (_, i) => {
      const e: Record<string, unknown> = { event: 'payment', amount: Number(process.env.BENCH_BATCH_AMOUNT ?? 20_000), user_id: `new_${i}_${Math.random()}` }
      const metadata: Record<string, string> = {}
      for (let k = 0; k < Math.min(45, eventKeys); k++) metadata[`m${k}`] = `v${k}`
      e.metadata = metadata
      for (let k = 45; k < eventKeys; k++) e[`c${k}`] = `v${k}`
      return e
    })
  })
}

const batch = hostileBatch()
const pool = new Pool(process.env.BENCH_URL!, { connections: attackers })
const answered = { ok: 0, limited: 0, other: 0, bytes: batch.length }
let attacking = true
process.once('SIGTERM', () => { attacking = false })
const attack = async () => {
  while (attacking) {
    try {
      const res = await pool.request({ path: '/v1/score/batch', method: 'POST', headers: { authorization: `Bearer ${process.env.BENCH_KEY!}`, 'content-type': 'application/json' }, body: batch })
      await res.body.dump()
      if (res.statusCode === 200) answered.ok++
      else if (res.statusCode === 429) answered.limited++
      else answered.other++
    } catch { answered.other++ }
  }
}
await Promise.all(Array.from({ length: attackers }, attack))
await pool.close()
console.log(JSON.stringify(answered))
