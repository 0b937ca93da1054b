import { afterEach, describe, expect, it } from 'vitest'
import type { ConsumedRecord, EventLog } from '../../src/stream/eventlog/event-log.js'

/** What each transport provides to the contract suite. `open` may be called again to reopen the same durable log. */
export interface EventLogFixture {
  open(): Promise<EventLog>
  name(prefix: string): string
}

function collector (log: EventLog, group: string, topics: string[], fromBeginning = true) {
  const seen: ConsumedRecord[] = []
  let waiters: Array<{ n: number, resolve: () => void }> = []
  const subscription = log.subscribe({
    group,
    topics,
    fromBeginning,
    onBatch: async records => {
      seen.push(...records)
      waiters = waiters.filter(w => { if (seen.length >= w.n) { w.resolve(); return false } return true })
    }
  })
  return {
    seen,
    ready: subscription,
    async until (n: number, timeoutMs = 20000): Promise<ConsumedRecord[]> {
      await subscription
      if (seen.length < n) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`timed out with ${seen.length}/${n} records`)), timeoutMs)
          waiters.push({ n, resolve: () => { clearTimeout(timer); resolve() } })
        })
      }
      return seen
    },
    async close () { await (await subscription).close() }
  }
}

const text = (r: ConsumedRecord) => r.value.toString()
const records = (prefix: string, n: number, key = (i: number) => `k${i % 4}`) =>
  Array.from({ length: n }, (_, i) => ({ key: key(i), value: Buffer.from(`${prefix}${i}`), headers: { seq: String(i) } }))

export function eventLogContract (transport: string, fixture: EventLogFixture): void {
  describe(`EventLog contract: ${transport}`, () => {
    const opened: EventLog[] = []
    const open = async () => { const log = await fixture.open(); opened.push(log); return log }
    afterEach(async () => { await Promise.all(opened.splice(0).map(l => l.close())) })

    it('delivers every record with key, headers and timestamp, in order per key', async () => {
      const log = await open()
      const topic = fixture.name('orders')
      await log.ensureTopics([{ name: topic, partitions: 3 }])
      await log.append(topic, [{ key: 'a', value: Buffer.from('x'), headers: { h: '1' }, timestamp: 1_700_000_000_000 }])
      await log.append(topic, records('v', 40))
      const got = await collector(log, fixture.name('g'), [topic]).until(41)
      expect(got).toHaveLength(41)
      const first = got.find(r => r.key === 'a')!
      expect(first).toMatchObject({ topic, headers: { h: '1' }, timestamp: 1_700_000_000_000 })
      expect(text(first)).toBe('x')
      for (const key of ['k0', 'k1', 'k2', 'k3']) {
        const seqs = got.filter(r => r.key === key).map(r => Number(r.headers.seq))
        expect(seqs).toEqual([...seqs].sort((a, b) => a - b))
        expect(new Set(got.filter(r => r.key === key).map(r => r.partition)).size).toBe(1)
      }
    })

    it('resumes a consumer group from its committed offset after the log is reopened', async () => {
      const topic = fixture.name('resume')
      const group = fixture.name('g')
      const first = await open()
      await first.ensureTopics([{ name: topic, partitions: 2 }])
      await first.append(topic, records('a', 10))
      const c1 = collector(first, group, [topic])
      await c1.until(10)
      await c1.close()
      await first.close()
      opened.splice(opened.indexOf(first), 1)

      const second = await open()
      await second.ensureTopics([{ name: topic, partitions: 2 }])
      await second.append(topic, records('b', 5))
      const c2 = collector(second, group, [topic])
      const got = await c2.until(5)
      await new Promise(resolve => setTimeout(resolve, 300))
      expect(got.map(text).sort()).toEqual(['b0', 'b1', 'b2', 'b3', 'b4'])
      const everything = await collector(second, fixture.name('fresh'), [topic]).until(15)
      expect(everything).toHaveLength(15)
    })

    it('gives each consumer group its own copy of the stream', async () => {
      const log = await open()
      const topic = fixture.name('fanout')
      await log.ensureTopics([{ name: topic, partitions: 2 }])
      const a = collector(log, fixture.name('ga'), [topic])
      const b = collector(log, fixture.name('gb'), [topic])
      await Promise.all([a.ready, b.ready])
      await log.append(topic, records('v', 12))
      expect((await a.until(12)).map(text).sort()).toEqual((await b.until(12)).map(text).sort())
    })

    it('redelivers a batch whose handler failed', async () => {
      const log = await open()
      const topic = fixture.name('retry')
      await log.ensureTopics([{ name: topic, partitions: 1 }])
      await log.append(topic, records('v', 3, () => 'same'))
      const seen: string[] = []
      let failures = 0
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no redelivery')), 30000)
        void log.subscribe({
          group: fixture.name('g'),
          topics: [topic],
          onBatch: async batch => {
            if (failures === 0) { failures++; throw new Error('handler failure') }
            seen.push(...batch.map(text))
            if (seen.length >= 3) { clearTimeout(timer); resolve() }
          }
        })
      })
      expect(failures).toBe(1)
      expect(seen.slice(0, 3)).toEqual(['v0', 'v1', 'v2'])
    })

    it('routes by partitionKey when given, keeping distinct record keys', async () => {
      const log = await open()
      const topic = fixture.name('pkey')
      await log.ensureTopics([{ name: topic, partitions: 4, compacted: true }])
      await log.append(topic, Array.from({ length: 8 }, (_, i) => ({ key: `tenant-a:v${i}`, partitionKey: 'tenant-a', value: Buffer.from(`v${i}`) })))
      const got = await collector(log, fixture.name('g'), [topic]).until(8)
      expect(new Set(got.map(r => r.partition)).size).toBe(1)
      expect(got.map(text)).toEqual(['v0', 'v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7'])
      expect(got.map(r => r.key)).toEqual(Array.from({ length: 8 }, (_, i) => `tenant-a:v${i}`))
    })

    it('appends a tombstone to the partition given, over any key, and consumers read it empty with its headers', async () => {
      const log = await open()
      const topic = fixture.name('tomb')
      await log.ensureTopics([{ name: topic, partitions: 4, compacted: true }])
      await log.append(topic, [{ key: 'tenant-a:k', partitionKey: 'tenant-a', value: Buffer.from('v1') }, { key: 'tenant-b:k', value: Buffer.from('kept') }])
      const first = await collector(log, fixture.name('g'), [topic]).until(2)
      const partition = first.find(r => r.key === 'tenant-a:k')!.partition
      await log.append(topic, [{ key: 'tenant-a:k', partition, value: new Uint8Array(0), headers: { tenant_id: 'tenant-a' } }])
      const got = await collector(log, fixture.name('g'), [topic]).until(3)
      const ofKey = got.filter(r => r.key === 'tenant-a:k')
      expect(ofKey.map(r => r.partition)).toEqual([partition, partition])
      expect(ofKey[1]!.value.length).toBe(0)
      expect(ofKey[1]!.headers).toMatchObject({ tenant_id: 'tenant-a' })
      // Compaction keeps the tombstone and drops what it deletes (the embedded log at once, Kafka's cleaner later).
      if (log.kind === 'embedded') expect(ofKey[0]!.value.length).toBe(0)
      expect(text(got.find(r => r.key === 'tenant-b:k')!)).toBe('kept')
    })

    it('reports per partition the offset the next record will get', async () => {
      const log = await open()
      const topic = fixture.name('ends')
      await log.ensureTopics([{ name: topic, partitions: 2 }])
      expect(await log.endOffsets(topic)).toEqual([0, 0])
      await log.append(topic, [...records('a', 3, () => 'same'), ...records('b', 1, () => 'other')])
      const ends = await log.endOffsets(topic)
      expect(ends.reduce((a, b) => a + b, 0)).toBe(4)
      const got = await collector(log, fixture.name('g'), [topic]).until(4)
      for (const r of got) expect(r.offset).toBeLessThan(ends[r.partition]!)
    })

    it('reports per group the records appended to its topics that it has not committed', async () => {
      const log = await open()
      const topic = fixture.name('lag')
      await log.ensureTopics([{ name: topic, partitions: 2 }])
      const group = fixture.name('g')
      let hold = true
      let handled = 0
      const sub = await log.subscribe({
        group,
        topics: [topic],
        onBatch: async batch => {
          if (hold) throw new Error('not yet')
          handled += batch.length
        }
      })
      await log.append(topic, [...records('a', 3, () => 'same'), ...records('b', 2, () => 'other')])
      expect((await log.lag!())[group]).toBe(5)
      hold = false
      const deadline = Date.now() + 30000
      while ((await log.lag!())[group] !== 0) {
        if (Date.now() > deadline) throw new Error(`lag still ${(await log.lag!())[group]}`)
        await new Promise(resolve => setTimeout(resolve, 50))
      }
      expect(handled).toBeGreaterThanOrEqual(5)
      await sub.close()
    })

    it('starts a new group at the end when fromBeginning is false', async () => {
      const log = await open()
      const topic = fixture.name('latest')
      await log.ensureTopics([{ name: topic, partitions: 1 }])
      await log.append(topic, records('old', 3))
      const c = collector(log, fixture.name('g'), [topic], false)
      await c.ready
      // Kafka assigns partitions asynchronously after subscribe; give the group a moment to join.
      await new Promise(resolve => setTimeout(resolve, log.kind === 'kafka' ? 3000 : 10))
      await log.append(topic, records('new', 2))
      const got = await c.until(2)
      expect(got.map(text)).toEqual(['new0', 'new1'])
    })
  })
}
