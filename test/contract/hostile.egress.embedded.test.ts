import { hostileEgressSuite, egressEnv } from './hostile.egress.flow.js'
import { startTestApp } from '../support/app.js'

hostileEgressSuite('embedded', receiver => startTestApp(egressEnv(receiver), { listen: true }))
