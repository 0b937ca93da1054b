import net from 'node:net'

/**
 * Finds a real Kafka broker for Kafka-mode tests: KAFKA_BROKERS if set, else the broker of
 * `npm run kafka:local` on 127.0.0.1:19092, else a testcontainers Kafka when a Docker engine answers.
 * Returns undefined with the reason when none can be had; callers skip and print it.
 */
export interface KafkaTarget { brokers: string[], stop(): Promise<void> }

let cached: Promise<KafkaTarget | { reason: string }> | undefined

function answers (host: string, port: number): Promise<boolean> {
  return new Promise(resolve => {
    const socket = net.connect({ host, port, timeout: 1000 })
    socket.once('connect', () => { socket.destroy(); resolve(true) })
    socket.once('error', () => resolve(false))
    socket.once('timeout', () => { socket.destroy(); resolve(false) })
  })
}

async function find (): Promise<KafkaTarget | { reason: string }> {
  const configured = process.env.KAFKA_BROKERS
  const candidates = configured !== undefined && configured !== '' ? configured.split(',') : ['127.0.0.1:19092']
  const [host, port] = candidates[0]!.split(':')
  if (await answers(host!, Number(port))) return { brokers: candidates, stop: async () => {} }
  try {
    const { KafkaContainer } = await import('@testcontainers/kafka')
    const container = await new KafkaContainer('confluentinc/cp-kafka:7.7.1').withKraft().start()
    return { brokers: [`${container.getHost()}:${container.getMappedPort(9093)}`], stop: async () => { await container.stop() } }
  } catch (err) {
    return { reason: `no Kafka broker on ${candidates.join(',')} (start one with \`npm run kafka:local\`) and no Docker engine for testcontainers (${(err as Error).message.split('\n')[0]})` }
  }
}

export async function kafkaTarget (): Promise<KafkaTarget | { reason: string }> {
  cached ??= find()
  return cached
}

/** Top-level await helper for test files: brokers, or undefined after printing why Kafka tests are skipped. */
export async function kafkaBrokersOrSkip (suite: string): Promise<string[] | undefined> {
  const target = await kafkaTarget()
  if ('reason' in target) {
    console.warn(`[skip] ${suite}: ${target.reason}`)
    return undefined
  }
  return target.brokers
}

export function uniqueName (prefix: string): string {
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`
}
