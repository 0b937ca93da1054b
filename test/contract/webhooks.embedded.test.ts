import { startTestApp } from '../support/app.js'
import { webhookEnv, webhookFlowSuite } from './webhooks.flow.js'

webhookFlowSuite('embedded', async receiver => {
  const app = await startTestApp(webhookEnv(receiver))
  return { a: app, b: app }
})
