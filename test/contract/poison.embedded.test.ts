import { poisonSuite } from './poison.flow.js'
import { startTestApp } from '../support/app.js'

poisonSuite('embedded', () => startTestApp({ RELAY_LINGER_MS: '200' }))
