import { diskFullSuite, storageFaultSuite } from './hostile.storage.flow.js'
import { startTestApp } from '../support/app.js'

storageFaultSuite('embedded', () => startTestApp())
// A reserve of 24 MB on the 64 MB disk: room for the stores' memtables at this load (docs/pipeline.md#storage-faults).
diskFullSuite(dataDir => startTestApp({ DATA_DIR: dataDir, STORAGE_RESERVE_MB: '24', RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '100000' }))
