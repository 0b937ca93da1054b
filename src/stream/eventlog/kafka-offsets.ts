import type { Consumer } from 'kafkajs'
import type { Logger } from 'pino'

/** Tries before an offset is left for the partition's next batch to carry (the member may have lost the partition). */
const TRIES = 3
const RETRY_MS = 200

interface Offset { topic: string, partition: number, offset: string }

/**
 * A consumer group's offsets committed to Kafka behind its processing, so that the next fetch does not wait
 * for the commit (a write to `__consumer_offsets`: 13 ms a batch on the local broker under load, 17 % of a
 * catch-up's time). At most one commit is in flight; offsets handled meanwhile are coalesced to the latest of
 * each partition and sent with the next one. A crash before a commit lands redelivers those records, as a
 * crash between processing and committing always could: delivery is at-least-once, and processors with state
 * skip what their checkpoint holds. `drain` waits until everything handled is committed or given up (closing).
 */
export class BackgroundOffsetCommits {
  private readonly waiting = new Map<string, Offset & { tries: number }>()
  private sending: Promise<void> | undefined

  constructor (private readonly consumer: Pick<Consumer, 'commitOffsets'>, private readonly logger?: Logger) {}

  /** `next`: the offset of the next record to consume in the partition. */
  commit (topic: string, partition: number, next: number): void {
    this.waiting.set(`${topic}\u0000${partition}`, { topic, partition, offset: String(next), tries: 0 })
    this.sending ??= this.send()
  }

  async drain (): Promise<void> {
    while (this.sending !== undefined) await this.sending
  }

  private async send (): Promise<void> {
    while (this.waiting.size > 0) {
      const batch = [...this.waiting.entries()]
      this.waiting.clear()
      try {
        await this.consumer.commitOffsets(batch.map(([, { topic, partition, offset }]) => ({ topic, partition, offset })))
      } catch (err) {
        const again = batch.filter(([id, o]) => !this.waiting.has(id) && o.tries + 1 < TRIES)
        this.logger?.warn({ err, offsets: batch.length, retrying: again.length }, 'offset commit failed')
        for (const [id, o] of again) this.waiting.set(id, { ...o, tries: o.tries + 1 })
        if (again.length > 0) await new Promise(resolve => setTimeout(resolve, RETRY_MS))
      }
    }
    this.sending = undefined
  }
}
