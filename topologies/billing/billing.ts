import { mapDecisions, type Topology } from '../../src/stream/topology.js'
import { billingRecord } from '../../src/domain/records/billing.js'

/** decisions -> `billing`, keyed by trace id: at-least-once, so billing de-duplicates by trace_id. */
export const billing: Topology = {
  name: 'billing',
  description: 'one billing event per live decision, keyed by trace_id',
  stores: [],
  build: ctx => ({
    processors: [mapDecisions(ctx, 'billing', ctx.topics.billing, d => {
      const record = billingRecord(d)
      return record === undefined ? [] : [record]
    })]
  })
}
