import { caseFlowSuite } from './cases.flow.js'
import { startTestApp } from '../support/app.js'

caseFlowSuite('embedded', async () => {
  const app = await startTestApp()
  return { a: app, b: app }
})
