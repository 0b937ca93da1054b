import { describe, expect, it } from 'vitest'
import { BackgroundOffsetCommits } from '../../src/stream/eventlog/kafka-offsets.js'

type Offsets = Array<{ topic: string, partition: number, offset: string }>

/** A group coordinator that answers each commit when told to, failing the first `failures` of them. */
function coordinator (failures = 0) {
  const calls: Offsets[] = []
  const answers: Array<() => void> = []
  return {
    calls,
    answerAll: async () => { while (answers.length > 0) { answers.shift()!(); await new Promise(resolve => setImmediate(resolve)) } },
    /** Waits for the next commit (a retry comes after a pause), then answers it. */
    answerNext: async () => {
      while (answers.length === 0) await new Promise(resolve => setTimeout(resolve, 5))
      answers.shift()!()
    },
    commitOffsets: (offsets: Offsets) => new Promise<void>((resolve, reject) => {
      calls.push(offsets)
      answers.push(calls.length <= failures ? () => reject(new Error('REBALANCE_IN_PROGRESS')) : resolve)
    })
  }
}

describe('offsets committed behind processing', () => {
  it('keeps one commit in flight and sends the latest offset of each partition handled meanwhile with the next', async () => {
    const c = coordinator()
    const commits = new BackgroundOffsetCommits(c)
    commits.commit('t', 0, 10)
    commits.commit('t', 0, 20)
    commits.commit('t', 1, 5)
    commits.commit('t', 0, 30)
    expect(c.calls).toEqual([[{ topic: 't', partition: 0, offset: '10' }]])
    await c.answerAll()
    expect(c.calls[1]).toEqual([{ topic: 't', partition: 0, offset: '30' }, { topic: 't', partition: 1, offset: '5' }])
    expect(c.calls).toHaveLength(2)
  })

  it('drain resolves once every offset handled is committed', async () => {
    const c = coordinator()
    const commits = new BackgroundOffsetCommits(c)
    commits.commit('t', 0, 1)
    commits.commit('t', 0, 2)
    let drained = false
    const draining = commits.drain().then(() => { drained = true })
    await new Promise(resolve => setImmediate(resolve))
    expect(drained).toBe(false)
    await c.answerAll()
    await draining
    expect(c.calls.map(o => o[0]!.offset)).toEqual(['1', '2'])
  })

  it('tries a failed offset again unless a later one of its partition is waiting, and gives up after three tries', async () => {
    const once = coordinator(1)
    const commits = new BackgroundOffsetCommits(once)
    commits.commit('t', 0, 7)
    const draining = commits.drain()
    await once.answerNext()
    await once.answerNext()
    await draining
    expect(once.calls.map(o => o[0]!.offset)).toEqual(['7', '7'])

    const always = coordinator(Infinity)
    const failing = new BackgroundOffsetCommits(always)
    failing.commit('t', 0, 3)
    const given = failing.drain()
    for (let i = 0; i < 3; i++) await always.answerNext()
    await given
    expect(always.calls).toHaveLength(3)

    const superseded = coordinator(1)
    const later = new BackgroundOffsetCommits(superseded)
    later.commit('t', 0, 1)
    later.commit('t', 0, 2) // waits while 1 is in flight
    await superseded.answerNext() // 1 fails while 2 waits: 2 is sent, 1 is not sent again
    await superseded.answerNext()
    await later.drain()
    expect(superseded.calls.map(o => o[0]!.offset)).toEqual(['1', '2'])
  })
})
