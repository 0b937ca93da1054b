import { ConfigResourceTypes, Kafka, logLevel } from 'kafkajs'
import { describe, expect, it } from 'vitest'
import { KafkaEventLog } from '../../src/stream/eventlog/kafka.js'
import { ensureServiceTopics, topicNames } from '../../src/stream/topics.js'
import { kafkaBrokersOrSkip, uniqueName } from '../support/kafka.js'

const brokers = await kafkaBrokersOrSkip('Kafka topic retention')

/** The named configs of `topic` as the broker reports them. */
async function describeTopic (topic: string, names: string[]): Promise<Record<string, string>> {
  const admin = new Kafka({ brokers: brokers!, logLevel: logLevel.NOTHING }).admin()
  await admin.connect()
  try {
    const { resources } = await admin.describeConfigs({ includeSynonyms: false, resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: names }] })
    return Object.fromEntries(resources[0]!.configEntries.map(e => [e.configName, e.configValue]))
  } finally {
    await admin.disconnect()
  }
}

describe.skipIf(brokers === undefined)('Kafka topic retention', () => {
  it('keeps decisions (stamped with their event time) as configured, and stamps repartition topics when appended', async () => {
    const topicPrefix = `${uniqueName('retention')}.`
    const log = new KafkaEventLog({ brokers: brokers!, clientId: 'retention-test' })
    try {
      await ensureServiceTopics(log, { topicPrefix, decisionsPartitions: 2, decisionsRetentionMs: -1 })
    } finally {
      await log.close()
    }
    const t = topicNames({ topicPrefix })
    const names = ['retention.ms', 'message.timestamp.type', 'cleanup.policy']
    expect(await describeTopic(t.decisions, names)).toEqual({ 'retention.ms': '-1', 'message.timestamp.type': 'CreateTime', 'cleanup.policy': 'delete' })
    expect(await describeTopic(t.asyncScorerByTenant, names)).toMatchObject({ 'message.timestamp.type': 'LogAppendTime' })
    expect(await describeTopic(t.feedbackByTenant, names)).toMatchObject({ 'message.timestamp.type': 'LogAppendTime' })
    expect(await describeTopic(t.cases, names)).toMatchObject({ 'cleanup.policy': 'compact', 'message.timestamp.type': 'CreateTime' })
  })
})
