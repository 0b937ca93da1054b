import path from 'node:path'
import type { TreeTrainingSettings } from '../stream/topology.js'
import type { ConnectionBounds } from '../api/connection-guard.js'
import { parseEgressAllowList } from '../domain/webhooks/egress-policy.js'
import { DEFAULT_RULE_BUDGET_UNITS } from '../domain/rules/budget.js'

/** Service configuration, from environment variables (documented in docs/configuration.md). */
export interface Config {
  host: string
  port: number
  dataDir: string
  transport: 'embedded' | 'kafka'
  kafkaBrokers: string[]
  topicPrefix: string
  /** This instance's cell, of `cells` (docs/architecture.md#cells). */
  cell: number
  cells: number
  /** Where each other cell is reached: its instances' base URLs (CELL_URLS), tried by tenant. */
  cellUrls: Map<number, string[]>
  /** Where each other cell's instances answer gRPC (CELL_GRPC_URLS: host:port), when gRPC is served. */
  cellGrpcUrls: Map<number, string[]>
  decisionsPartitions: number
  decisionsRetentionMs: number
  schemaRegistryUrl: string | undefined
  logLevel: string
  relayLingerMs: number
  /** How often velocity records held in memory are written to the state store (stores/velocity/). */
  velocityFlushMs: number
  /** Velocity records kept in memory beyond those pinned or dirty (stores/velocity/). */
  velocityCacheRecords: number
  /**
   * How far V8 lets the heap grow past what survived its last full collection, in percent (0: V8's own
   * heuristics, which let it grow several times over). Set once at start (app/main.ts).
   */
  heapGrowingPercent: number
  relayMaxBatch: number
  /** Bytes of one relay append at most; on Kafka also at most 90 % of the decisions topic's max.message.bytes. */
  relayMaxBatchBytes: number
  /** Extra API keys registered for the default tenant at start (sk_test_/sk_live_ secrets), for ops and tests. */
  bootstrapKeys: string[]
  /** Topologies the service runs in its own process: every registered one (default), none, or the named ones. */
  inProcessTopologies: 'all' | string[]
  /** Where the one-process service runs its topologies: a worker thread (off the API's event loop) or the main thread. */
  topologyThread: 'worker' | 'main' | 'auto'
  /** Port of the gRPC scoring.Scorer service (default 50051; empty disables it). */
  grpcPort: number | undefined
  /** The optional mutual-TLS listener: port, and the server certificate and key files (PEM). */
  mtlsPort: number | undefined
  mtlsCertFile: string | undefined
  mtlsKeyFile: string | undefined
  /** Each HTTP listener's connection cap and timeouts (api/connection-guard.ts). */
  connections: ConnectionBounds
  /** Cost units the rules of one score request may spend (docs/rules.md, "Runtime budget"). */
  ruleBudgetUnits: number
  /** Token bucket per API key (per instance): sustained requests per second and burst. */
  rateLimitPerSecond: number
  rateLimitBurst: number
  /** All of one tenant's keys together (an account may mint keys: this bounds what it gets by minting them). */
  rateLimitTenantPerSecond: number
  rateLimitTenantBurst: number
  /** Webhook delivery: timeout of one attempt, multiplier of the retry schedule (tests shrink it), extra CA file. */
  webhookTimeoutMs: number
  webhookBackoffScale: number
  webhookCaFile: string | undefined
  /**
   * Webhook egress policy: the host names (`name`, `*.suffix`), addresses and CIDR ranges deliveries may reach
   * besides public addresses (default none: no loopback, private, link-local, ... destination; docs/webhooks.md).
   */
  webhookEgressAllow: string[]
  /** Model trainer: how often it publishes a new version when it learned something (ms), and when a decision without a fraud label counts as legitimate (days after its event time). */
  modelPublishIntervalMs: number
  labelMaturityDays: number
  /**
   * A decision whose event time lies more than this before the service recorded it is late: scored and
   * recorded, but not learned from (docs/adaptive-scoring.md#how-far-back-event_time-may-lie).
   */
  lateEventHours: number
  /**
   * When a decision counts as recorded: `arrival` (the service's clock; labels mature and Stage 3 gates apply
   * by it) or `event_time` (the client's event time, for a deployment of its own that replays history).
   */
  recordedTime: 'arrival' | 'event_time'
  /** Gradient-boosted trees the model trainer retrains per tenant (docs/detection.md). */
  modelTrees: TreeTrainingSettings
  /** Tenant id given to the default tenant of a fresh data directory (instances of one deployment share it). */
  /** GET /readyz answers 503 while a consumer group of this process is more records behind than this. */
  readyMaxLag: number
  /** Room kept on DATA_DIR's disk for the stores to recover after a full disk, in MB (0: none; stores/storage-health.ts). */
  storageReserveMb: number
  /** GET /metrics listens here (undefined: no metrics listener); with a token, only its bearer is answered. */
  metrics: { port: number | undefined, token: string | undefined }
  /** Dashboard sessions end after this long unused (idle) or after sign-in (absolute). */
  dashboardSession: { idleMs: number, absoluteMs: number }
  defaultTenantId: string | undefined
  /** OPERATOR_TOKEN: the credential of the operator API (/admin/v1); unset, that API is off. */
  operatorToken: string | undefined
}

function int (env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}, got '${raw}'`)
  return n
}

/** WEBHOOK_EGRESS_ALLOW's entries, refused at start when one is neither a host name, an address nor a CIDR range. */
function egressAllowList (entries: string[]): string[] {
  parseEgressAllowList(entries)
  return entries
}

function recordedTime (raw: string | undefined): Config['recordedTime'] {
  if (raw === undefined || raw === '' || raw === 'arrival') return 'arrival'
  if (raw === 'event_time') return raw
  throw new Error(`RECORDED_TIME must be 'arrival' or 'event_time', got '${raw}'`)
}

export function loadConfig (env: NodeJS.ProcessEnv = process.env): Config {
  const transport = env.TRANSPORT ?? 'embedded'
  if (transport !== 'embedded' && transport !== 'kafka') throw new Error(`TRANSPORT must be 'embedded' or 'kafka', got '${transport}'`)
  const list = (v: string | undefined) => (v ?? '').split(',').map(s => s.trim()).filter(s => s !== '')
  return {
    host: env.HOST ?? '0.0.0.0',
    port: int(env, 'PORT', 8080, 0, 65535),
    dataDir: path.resolve(env.DATA_DIR ?? 'data'),
    transport,
    kafkaBrokers: transport === 'kafka' ? (list(env.KAFKA_BROKERS).length > 0 ? list(env.KAFKA_BROKERS) : ['127.0.0.1:19092']) : [],
    topicPrefix: env.TOPIC_PREFIX ?? '',
    ...cellsOf(env),
    decisionsPartitions: int(env, 'DECISIONS_PARTITIONS', 6, 1, 1024),
    decisionsRetentionMs: int(env, 'DECISIONS_RETENTION_MS', -1, -1, Number.MAX_SAFE_INTEGER),
    schemaRegistryUrl: env.SCHEMA_REGISTRY_URL === '' ? undefined : env.SCHEMA_REGISTRY_URL,
    logLevel: env.LOG_LEVEL ?? 'info',
    relayLingerMs: int(env, 'RELAY_LINGER_MS', 100, 0, 1000),
    velocityFlushMs: int(env, 'VELOCITY_FLUSH_MS', 200, 0, 3_600_000),
    velocityCacheRecords: int(env, 'VELOCITY_CACHE_RECORDS', 30_000, 1_000, 100_000_000),
    heapGrowingPercent: int(env, 'HEAP_GROWING_PERCENT', 100, 0, 1000),
    relayMaxBatch: int(env, 'RELAY_MAX_BATCH', 500, 1, 10000),
    relayMaxBatchBytes: int(env, 'RELAY_MAX_BATCH_BYTES', 900_000, 1024, 64 * 1024 * 1024),
    bootstrapKeys: list(env.BOOTSTRAP_API_KEYS),
    grpcPort: env.GRPC_PORT === '' ? undefined : int(env, 'GRPC_PORT', 50051, 0, 65535),
    mtlsPort: env.MTLS_PORT === undefined || env.MTLS_PORT === '' ? undefined : int(env, 'MTLS_PORT', 0, 0, 65535),
    mtlsCertFile: env.MTLS_CERT_FILE === '' ? undefined : env.MTLS_CERT_FILE,
    mtlsKeyFile: env.MTLS_KEY_FILE === '' ? undefined : env.MTLS_KEY_FILE,
    connections: {
      maxConnections: int(env, 'HTTP_MAX_CONNECTIONS', 4096, 1, 1_000_000),
      idleTimeoutMs: int(env, 'HTTP_IDLE_TIMEOUT_MS', 10_000, 100, 3_600_000),
      keepAliveTimeoutMs: int(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 72_000, 100, 3_600_000),
      headersTimeoutMs: int(env, 'HTTP_HEADERS_TIMEOUT_MS', 10_000, 100, 3_600_000),
      requestTimeoutMs: int(env, 'HTTP_REQUEST_TIMEOUT_MS', 15_000, 100, 3_600_000)
    },
    ruleBudgetUnits: int(env, 'RULE_BUDGET_UNITS', DEFAULT_RULE_BUDGET_UNITS, 1, 100_000_000),
    rateLimitPerSecond: int(env, 'RATE_LIMIT_PER_SECOND', 500, 1, 1_000_000),
    rateLimitBurst: int(env, 'RATE_LIMIT_BURST', 1000, 1, 10_000_000),
    rateLimitTenantPerSecond: int(env, 'RATE_LIMIT_TENANT_PER_SECOND', 4 * int(env, 'RATE_LIMIT_PER_SECOND', 500, 1, 1_000_000), 1, 4_000_000),
    rateLimitTenantBurst: int(env, 'RATE_LIMIT_TENANT_BURST', 4 * int(env, 'RATE_LIMIT_BURST', 1000, 1, 10_000_000), 1, 40_000_000),
    webhookTimeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 5000, 100, 60000),
    webhookBackoffScale: Number(env.WEBHOOK_BACKOFF_SCALE ?? '1'),
    webhookCaFile: env.WEBHOOK_CA_FILE === '' ? undefined : env.WEBHOOK_CA_FILE,
    webhookEgressAllow: egressAllowList(list(env.WEBHOOK_EGRESS_ALLOW)),
    modelPublishIntervalMs: int(env, 'MODEL_PUBLISH_INTERVAL_MS', 60_000, 10, 86_400_000),
    labelMaturityDays: int(env, 'LABEL_MATURITY_DAYS', 10, 1, 365),
    lateEventHours: int(env, 'LATE_EVENT_HOURS', 24, 1, 24 * 365),
    recordedTime: recordedTime(env.RECORDED_TIME),
    modelTrees: {
      everyHours: int(env, 'MODEL_RETRAIN_HOURS', 6, 1, 8760),
      windowDays: int(env, 'MODEL_TRAINING_DAYS', 90, 1, 365),
      minFrauds: int(env, 'MODEL_MIN_FRAUDS', 30, 1, 1_000_000),
      negativeSamplePercent: int(env, 'MODEL_NEGATIVE_SAMPLE_PERCENT', 10, 1, 100)
    },
    readyMaxLag: int(env, 'READY_MAX_LAG', 10_000, 0, 1_000_000_000),
    storageReserveMb: int(env, 'STORAGE_RESERVE_MB', 64, 0, 1_000_000),
    metrics: {
      port: env.METRICS_PORT === '' ? undefined : int(env, 'METRICS_PORT', 9464, 0, 65535),
      token: env.METRICS_TOKEN === undefined || env.METRICS_TOKEN === '' ? undefined : env.METRICS_TOKEN
    },
    dashboardSession: {
      idleMs: int(env, 'DASHBOARD_IDLE_MINUTES', 30, 1, 24 * 60) * 60_000,
      absoluteMs: int(env, 'DASHBOARD_SESSION_HOURS', 12, 1, 24 * 30) * 3_600_000
    },
    defaultTenantId: env.DEFAULT_TENANT_ID === '' ? undefined : env.DEFAULT_TENANT_ID,
    operatorToken: operatorTokenOf(env.OPERATOR_TOKEN),
    topologyThread: env.TOPOLOGY_THREAD === 'worker' || env.TOPOLOGY_THREAD === 'main' ? env.TOPOLOGY_THREAD : 'auto',
    inProcessTopologies: env.TOPOLOGIES === undefined || env.TOPOLOGIES === '' || env.TOPOLOGIES === 'all' ? 'all' : env.TOPOLOGIES === 'none' ? [] : list(env.TOPOLOGIES)
  }
}

/**
 * CELL, CELLS and CELL_URLS (`1=http://a:8080|http://b:8080,2=...`, every other cell's instances, for an API
 * instance: requireCellUrls); cells exist only on Kafka (the embedded log is one process's).
 */
function cellsOf (env: NodeJS.ProcessEnv): Pick<Config, 'cell' | 'cells' | 'cellUrls' | 'cellGrpcUrls'> {
  const cells = int(env, 'CELLS', 1, 1, 1024)
  const cell = int(env, 'CELL', 0, 0, cells - 1)
  if (cells > 1 && env.TRANSPORT !== 'kafka') throw new Error('CELLS above 1 needs TRANSPORT=kafka: the cells of a deployment share its Kafka cluster')
  const cellUrls = cellAddresses('CELL_URLS', env.CELL_URLS, cells, /^https?:\/\/[^/]+\/?$/, 'a base URL (http(s)://host:port)')
  const cellGrpcUrls = cellAddresses('CELL_GRPC_URLS', env.CELL_GRPC_URLS, cells, /^[^/:\s]+:\d+$/, 'host:port')
  return { cell, cells, cellUrls, cellGrpcUrls }
}

/** `<cell>=<address>|<address>,...`: each cell's instances. */
function cellAddresses (name: string, raw: string | undefined, cells: number, shape: RegExp, what: string): Map<number, string[]> {
  const byCell = new Map<number, string[]>()
  for (const entry of (raw ?? '').split(',').map(e => e.trim()).filter(e => e !== '')) {
    const [cell, addresses] = entry.split('=', 2)
    const n = Number(cell)
    if (!Number.isInteger(n) || n < 0 || n >= cells || addresses === undefined) throw new Error(`${name}: '${entry}' is not <cell>=<address>|<address>... for a cell from 0 to ${cells - 1}`)
    const list = addresses.split('|').map(u => u.trim()).filter(u => u !== '')
    for (const u of list) if (!shape.test(u)) throw new Error(`${name}: '${u}' is not ${what}`)
    byCell.set(n, list.map(u => u.replace(/\/$/, '')))
  }
  return byCell
}

/**
 * An API instance forwards to every other cell: each needs a URL, and a gRPC address when this instance serves
 * gRPC (a topology process forwards nothing).
 */
export function requireCellUrls (config: Pick<Config, 'cell' | 'cells' | 'cellUrls' | 'cellGrpcUrls' | 'grpcPort'>): void {
  for (let other = 0; other < config.cells; other++) {
    if (other === config.cell) continue
    if (!config.cellUrls.has(other)) throw new Error(`CELL_URLS: no URL for cell ${other} (this is cell ${config.cell} of ${config.cells})`)
    if (config.grpcPort !== undefined && !config.cellGrpcUrls.has(other)) throw new Error(`CELL_GRPC_URLS: no gRPC address for cell ${other} (this instance serves gRPC: GRPC_PORT; this is cell ${config.cell} of ${config.cells})`)
  }
}

/** OPERATOR_TOKEN: unset or empty turns the operator API off; a set one must be long enough not to be guessed. */
function operatorTokenOf (token: string | undefined): string | undefined {
  if (token === undefined || token === '') return undefined
  if (token.length < 32 || /\s/.test(token)) throw new Error('OPERATOR_TOKEN must be at least 32 characters without spaces (for example: openssl rand -hex 32)')
  return token
}
