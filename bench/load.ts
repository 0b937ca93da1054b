/** What the load benchmarks share: the service under test, request bodies, a closed and an open loop, RSS. */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import hdr from 'hdr-histogram-js'
import type { ChildProcess } from 'node:child_process'
import { Pool } from 'undici'
import { OPERATOR_AUTH, start } from './service.js'

export const KEY = 'sk_test_benchmarkkey000000000000'
export const AUTH = { authorization: `Bearer ${KEY}` }

/** The service as its own process on a fresh data directory, one key whose rate limit is lifted (the figures measure the service, not the limiter). */
export async function startService (env: Record<string, string> = {}, nodeArgs: string[] = []) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fds-bench-'))
  const service = await start('src/app/main.ts', {
    DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', GRPC_PORT: '0', LOG_LEVEL: 'info',
    BOOTSTRAP_API_KEYS: KEY, RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '1000000', ...env
  }, nodeArgs)
  return { ...service, dataDir }
}

/** What V8 reports of its collections (node --trace-gc-nvp, on the process's stdout): each isolate's, worker threads' too. */
export interface GcTotals { allocatedBytes: number, scavenges: number, fullCollections: number, fullPauseMs: number, longestPauseMs: number }

/**
 * Adds up the collections a process started with GC_TRACE_ARGS reports while `window` is open: the bytes its
 * JavaScript allocated (`allocated=` of each collection: bytes since the one before), and the full collections
 * (mark-compact, `gc=ms`) with their pauses, the tail's usual cause.
 */
export function gcTotals (child: ChildProcess): { open(): void, close(): GcTotals } {
  let counting = false
  const totals: GcTotals = { allocatedBytes: 0, scavenges: 0, fullCollections: 0, fullPauseMs: 0, longestPauseMs: 0 }
  let rest = ''
  child.stdout!.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString()).split('\n')
    rest = lines.pop()!
    if (!counting) return
    for (const line of lines) {
      // Every thread writes its lines to the same stdout: a line another thread's output broke into is skipped.
      const allocated = /\ballocated=(\d+)/.exec(line)
      if (allocated === null || !WHOLE_GC_LINE.test(line) || line.indexOf('[', 1) !== -1) continue
      totals.allocatedBytes += Number(allocated[1])
      const pause = Number(/\bpause=([\d.]+)/.exec(line)?.[1] ?? 0)
      totals.longestPauseMs = Math.max(totals.longestPauseMs, pause)
      if (/\bgc=s\b/.test(line)) totals.scavenges++
      else { totals.fullCollections++; totals.fullPauseMs += pause }
    }
  })
  return { open: () => { counting = true }, close: () => { counting = false; return { ...totals } } }
}
export const GC_TRACE_ARGS = ['--trace-gc-nvp']
/** `[pid:isolate]   123 ms: pause=1.7 ...`: the start of a line --trace-gc-nvp writes. */
const WHOLE_GC_LINE = /^\[\d+:0x[0-9a-f]+\]\s+[\d.]+ ms: pause=/

export function rssMb (pid: number): { rss: number, peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0)
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 }
}

/**
 * CPU seconds a process has used so far, every thread (user and system time from /proc/PID/stat, in the
 * kernel's clock ticks of 1/100 s). At a fixed offered rate, its difference over a run divided by the requests
 * is the CPU a request, a steadier figure than throughput on shared machines.
 */
export function cpuSeconds (pid: number): number {
  return statCpuSeconds(`/proc/${pid}/stat`)
}

/** CPU seconds the main thread of process `pid` used (its event loop's). */
export function mainThreadCpuSeconds (pid: number): number {
  return statCpuSeconds(`/proc/${pid}/task/${pid}/stat`)
}

/** CPU seconds each kind of thread of process `pid` used, by thread name (`node` is the event loop's). */
export function threadCpuSeconds (pid: number): Map<string, number> {
  const byName = new Map<string, number>()
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/[0-9]+$/, '')
      byName.set(name, (byName.get(name) ?? 0) + statCpuSeconds(`/proc/${pid}/task/${tid}/stat`))
    } catch {} // the thread ended between the listing and the read
  }
  return byName
}

function statCpuSeconds (path: string): number {
  const fields = readFileSync(path, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

/** `n` score request bodies over `distinct` users, devices, cards, emails and IPs. */
export function scoreBodies (n: number, distinct = 5000): string[] {
  return Array.from({ length: n }, (_, i) => {
    const u = i % distinct
    return JSON.stringify({
      event: 'payment', amount: (i * 37) % 900 + 1, currency: 'USD', user_id: `user_${u}`, device_id: `dev_${(i * 7) % distinct}`,
      ip: `10.${(u >> 16) & 255}.${(u >> 8) & 255}.${u & 255}`, email: `u${u}@example.com`, custom: { card_id: `card_${(i * 13) % distinct}` }, terminal_id: `t${i % 300}`
    })
  })
}

export interface LoadResult { rps: number, p50: number, p99: number, p999: number, non2xx: number, errors: number }

/** POSTs the bodies in turn for `seconds`, closed loop: each of `connections` sends its next request when the last one is answered. */
export async function load (url: string, headers: Record<string, string>, bodies: string[], options: { seconds: number, connections: number }): Promise<LoadResult> {
  let i = 0
  const result = await autocannon({
    url,
    method: 'POST',
    connections: options.connections,
    duration: options.seconds,
    headers: { 'content-type': 'application/json', ...headers },
    requests: [{ setupRequest: req => ({ ...req, body: bodies[i++ % bodies.length] }) }]
  })
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, p999: result.latency.p99_9, non2xx: result.non2xx, errors: result.errors }
}

/**
 * POSTs the bodies in turn at a fixed offered `rate` for `seconds`, open loop: request n is due at n / rate
 * seconds whatever the answers before it, and its latency counts from then, so time spent waiting for a
 * connection or behind a stalled server is measured (no coordinated omission). autocannon's `overallRate` is
 * not this: each connection sends its share of a second back to back as soon as the second starts, then waits,
 * so its latencies are those of a closed loop run for part of every second. At most `connections` requests
 * are in flight; the others queue in the client, on the clock.
 */
export async function offer (url: string, headers: Record<string, string>, bodies: string[], options: { seconds: number, connections: number, rate: number }): Promise<LoadResult> {
  const target = new URL(url)
  const pool = new Pool(target.origin, { connections: options.connections, pipelining: 1 })
  const latencyUs = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3 })
  const total = Math.round(options.seconds * options.rate)
  const requestHeaders = { 'content-type': 'application/json', ...headers }
  // Every connection opened (and the service's path warm) before the clock starts: connecting is not the service's time.
  await Promise.all(bodies.slice(0, options.connections).map(async body => {
    await (await pool.request({ path: target.pathname, method: 'POST', headers: requestHeaders, body })).body.dump()
  }))
  let sent = 0
  let answered = 0
  let non2xx = 0
  let errors = 0
  const start = performance.now()
  await new Promise<void>(resolve => {
    const answer = (due: number) => {
      latencyUs.recordValue(Math.max(1, Math.round((performance.now() - due) * 1000)))
      if (++answered === total) resolve()
    }
    const send = () => {
      const due = Math.min(total, Math.floor((performance.now() - start) * options.rate / 1000) + 1)
      for (; sent < due; sent++) {
        const dueAt = start + sent * 1000 / options.rate
        pool.request({ path: target.pathname, method: 'POST', headers: requestHeaders, body: bodies[sent % bodies.length] })
          .then(async res => { await res.body.dump(); if (res.statusCode < 200 || res.statusCode > 299) non2xx++ }, () => { errors++ })
          .finally(() => answer(dueAt))
      }
      if (sent < total) setTimeout(send, 1)
    }
    send()
  })
  const seconds = (performance.now() - start) / 1000
  await pool.close()
  const ms = (p: number) => Math.round(latencyUs.getValueAtPercentile(p) / 100) / 10
  return { rps: answered / seconds, p50: ms(50), p99: ms(99), p999: ms(99.9), non2xx, errors }
}

const DAY_S = 86_400

/**
 * Bodies of POST /v1/score/batch recording `total` decisions, `size` a request, over `distinct` users,
 * devices, cards, emails and IPs, their event times spread evenly over the 30 days before `nowS`.
 */
export function batchBody (from: number, size: number, total: number, distinct: number, nowS: number): string {
  const events = []
  for (let n = from; n < Math.min(total, from + size); n++) {
    const u = (n * 7919) % distinct
    events.push({
      event: 'payment', amount: (n * 37) % 900 + 1, currency: 'USD', user_id: `user_${u}`, device_id: `dev_${(n * 7) % distinct}`,
      ip: `10.${(u >> 16) & 255}.${(u >> 8) & 255}.${u & 255}`, email: `u${u}@example.com`, custom: { card_id: `card_${(n * 13) % distinct}` },
      terminal_id: `t${n % 300}`, event_time: Math.floor(nowS - 30 * DAY_S + n * (30 * DAY_S / total))
    })
  }
  return JSON.stringify({ events })
}

/** Records `total` decisions through POST /v1/score/batch, two requests in flight; returns the failed requests. */
/** Events a preload batch holds. */
export const BATCH_SIZE = 500

export async function preloadDecisions (url: string, total: number, distinct: number, progress: (done: number) => void = () => {}): Promise<number> {
  const SIZE = BATCH_SIZE
  const nowS = Math.floor(Date.now() / 1000) - 3600
  let failed = 0
  const sender = async (first: number) => {
    for (let from = first; from < total; from += 2 * SIZE) {
      const res = await fetch(`${url}/v1/score/batch`, { method: 'POST', headers: { 'content-type': 'application/json', ...AUTH }, body: batchBody(from, SIZE, total, distinct, nowS) })
      await res.arrayBuffer()
      if (res.status !== 200) failed++
      if ((from / SIZE) % 200 === 0) progress(from + SIZE)
    }
  }
  await Promise.all([sender(0), sender(SIZE)])
  return failed
}

/** The service's GET /healthz: consumer lag per group, the outbox backlog, decisions materialized. */
export async function health (url: string): Promise<{ lag: Record<string, number>, outbox_pending: number, materialized: number, status: string }> {
  // Once more on a closed connection: a keep-alive socket the service closed as the poll was sent on it.
  for (let attempt = 1; ; attempt++) {
    try {
      return await (await fetch(`${url}/healthz`, { headers: OPERATOR_AUTH })).json() as never
    } catch (err) {
      if (attempt === 3) throw err
    }
  }
}
