import path from 'node:path'
import { parentPort, workerData } from 'node:worker_threads'
import pino from 'pino'
import { FollowerEventLog } from '../stream/eventlog/follower.js'
import { openEventLog, startCore } from './app.js'
import { figuresJson } from './metrics-server.js'
import { startTelemetry } from './telemetry.js'
import type { Config } from './config.js'

/**
 * The topologies of the one-process service, in a worker thread: off the API's event loop. They keep their
 * own state (DATA_DIR/topologies) and their own views; on the embedded log they consume the main thread's
 * log database themselves and append through the main thread (stream/eventlog/follower.ts), on Kafka they
 * connect themselves. Health goes to the main thread's /healthz, and their consumer groups' lag when asked;
 * `stop` closes them.
 */
const { config, names, logLevel, logHandle } = workerData as { config: Config, names: string[] | undefined, logLevel: string, logHandle?: bigint }
const port = parentPort!
const logger = pino({ level: logLevel })
const stopTelemetry = startTelemetry('topology-thread') ?? (async () => {})
const log = logHandle === undefined ? await openEventLog(config, logger) : await FollowerEventLog.open(logHandle, port)
// The views the topologies read: cases (the case writer), webhook endpoints (delivery), models (the trainer); and
// tenants, whose deletions erase what the topologies keep.
const core = await startCore({ ...config, dataDir: path.join(config.dataDir, 'topologies') }, logger, { log, views: ['tenants', 'cases', 'webhooks', 'models'], reserveFile: path.join(config.dataDir, 'storage-reserve') })
const stop = await core.startTopologies(names)
const report = () => port.postMessage({ op: 'health', report: core.health.report() })
core.health.onChange = report
report()
port.postMessage({ op: 'ready' })
port.on('message', (m: { op?: string, id?: number }) => {
  if (m.op === 'metrics') {
    void (async () => port.postMessage({ op: 'metrics', id: m.id, value: await figuresJson({ log, states: { topologies: core.state } }) }))()
  } else if (m.op === 'lag') {
    void (async () => port.postMessage({ op: 'lag', id: m.id, value: await log.lag?.() ?? {} }))()
  } else if (m.op === 'stop') {
    void (async () => {
      await stop()
      await core.closeCore()
      await stopTelemetry()
      port.postMessage({ op: 'stopped' })
    })()
  }
})
