import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { EmbeddedEventLog } from '../../src/stream/eventlog/embedded.js'
import { eventLogContract } from './eventlog.contract.js'

const dir = mkdtempSync(path.join(tmpdir(), 'fds-log-'))
let n = 0
eventLogContract('embedded (RocksDB)', {
  open: () => EmbeddedEventLog.open(dir),
  name: prefix => `${prefix}-${++n}`
})
