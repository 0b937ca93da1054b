import v8 from 'node:v8'
import pino from 'pino'
import { startApp, startCore } from './app.js'
import { loadConfig } from './config.js'
import { startMetricsServer } from './metrics-server.js'
import { startTelemetry } from './telemetry.js'
import { TOPOLOGIES } from '../../topologies/registry.js'
import { tenantsCli } from './tenants-cli.js'

/**
 * Entry point.
 *   node dist/src/app/main.js [start]          the whole service in one process (API, relay, materializer)
 *   node dist/src/app/main.js topology <name>  one topology alone
 *   node dist/src/app/main.js tenants ...      the operator API of a running instance (tenants-cli.ts)
 */
async function main (): Promise<void> {
  const [command = 'start', name] = process.argv.slice(2)
  if (command === 'tenants') process.exit(await tenantsCli(process.argv.slice(3), process.env))
  const config = loadConfig()
  // V8 reads this flag at every full collection, so setting it here holds for the whole run (and the worker).
  if (config.heapGrowingPercent > 0) v8.setFlagsFromString(`--heap-growing-percent=${config.heapGrowingPercent}`)
  const logger = pino({ level: config.logLevel })
  process.on('unhandledRejection', err => logger.error({ err }, 'unhandled rejection'))
  const stopTelemetry = startTelemetry(command === 'topology' ? `topology:${name ?? ''}` : 'api') ?? (async () => {})

  if (command === 'topology') {
    const topology = name === undefined ? undefined : TOPOLOGIES[name]
    if (topology === undefined) {
      console.error(`unknown topology '${name ?? ''}'; available: ${Object.keys(TOPOLOGIES).join(', ') || '(none yet)'}`)
      process.exit(2)
    }
    const core = await startCore(config, logger)
    const stop = await core.startTopologies([topology.name])
    const metrics = config.metrics.port === undefined ? undefined : await startMetricsServer({ host: config.host, port: config.metrics.port, token: config.metrics.token }, { log: core.log, states: { state: core.state } })
    logger.info({ topology: topology.name, transport: core.log.kind, metrics: metrics?.address }, 'topology running')
    onShutdown(logger, async () => { await metrics?.close(); await stop(); await core.closeCore(); await stopTelemetry() })
    return
  }
  if (command !== 'start') {
    console.error('usage: main.js [start] | topology <name> | tenants ...')
    process.exit(2)
  }

  const app = await startApp(config, logger)
  if (app.identity.firstSandboxKey !== undefined) {
    process.stdout.write(`\nSandbox API key (shown once, store it now): ${app.identity.firstSandboxKey}\n\n`)
  }
  await app.dashboardUsers.catchUp()
  const setupToken = await app.dashboard.issueSetupToken(app.identity.defaultTenant)
  process.stdout.write(`\nDashboard: ${app.address ?? ''}/dashboard/\n`)
  if (setupToken !== undefined) process.stdout.write(`Create its first admin (one-time link): ${app.address ?? ''}/dashboard/setup#${setupToken}\n\n`)
  logger.info({ address: app.address, metrics: app.metricsAddress, transport: app.log.kind, data_dir: config.dataDir }, 'fraud decision service listening')
  onShutdown(logger, async () => { await app.close(); await stopTelemetry() })
}

/** SIGTERM/SIGINT: stop accepting, finish in-flight requests, publish what the relay can, and exit within this. */
const SHUTDOWN_DEADLINE_MS = 9_000

function onShutdown (logger: pino.Logger, stop: () => Promise<void>): void {
  let stopping = false
  const handler = (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'shutting down')
    // Whatever is still running then (a broker that does not answer, say) is abandoned: every decision
    // answered is already durable in local state, and unpublished ones stay in the outbox.
    setTimeout(() => { logger.warn({ deadline_ms: SHUTDOWN_DEADLINE_MS }, 'shutdown deadline reached; exiting'); process.exit(1) }, SHUTDOWN_DEADLINE_MS).unref()
    stop().then(() => process.exit(0), err => { logger.error({ err }, 'shutdown failed'); process.exit(1) })
  }
  process.on('SIGTERM', handler)
  process.on('SIGINT', handler)
}

main().catch(err => {
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
})
