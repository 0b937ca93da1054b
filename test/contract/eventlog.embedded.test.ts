import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { MessageChannel } from 'node:worker_threads'
import { EmbeddedEventLog } from '../../src/stream/eventlog/embedded.js'
import type { EventLog } from '../../src/stream/eventlog/event-log.js'
import { FollowerEventLog, serveFollower } from '../../src/stream/eventlog/follower.js'
import { eventLogContract } from './eventlog.contract.js'

const dir = mkdtempSync(path.join(tmpdir(), 'fds-log-'))
let n = 0
eventLogContract('embedded (RocksDB)', {
  open: () => EmbeddedEventLog.open(dir),
  name: prefix => `${prefix}-${++n}`
})

/**
 * The topology worker's log: it consumes the embedded log's database through a shared handle and appends
 * through the log's owner over a message port. A MessageChannel in this thread stands in for the worker's
 * port (the worker's own run is test/contract/topology-thread.test.ts); the contract is the same.
 */
async function followed (location: string): Promise<EventLog> {
  const owner = await EmbeddedEventLog.open(location)
  const { port1, port2 } = new MessageChannel()
  const stopServing = serveFollower(owner, port1)
  const follower = await FollowerEventLog.open(owner.handle, port2)
  return Object.assign(follower, {
    close: async () => {
      await FollowerEventLog.prototype.close.call(follower)
      stopServing()
      port1.close()
      await owner.close()
    }
  })
}

const followedDir = mkdtempSync(path.join(tmpdir(), 'fds-followed-'))
eventLogContract('embedded, followed over a shared database', {
  open: () => followed(followedDir),
  name: prefix => `${prefix}-${++n}`
})
