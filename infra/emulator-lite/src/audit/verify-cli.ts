// `make audit-verify [ARGS="--data DIR"]`: checks the access log's hash chain in its SQLite file.
// Exit 0 when intact, 1 when broken, 2 when there is no log to check.

import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { AccessLog } from './access-log.ts'

const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../..')
const { values } = parseArgs({
  options: {
    data: { type: 'string', default: process.env.EMULATOR_LITE_DATA ?? resolve(repoRoot, '.data/emulator-lite') },
    file: { type: 'string' },
  },
})
const file = values.file ?? join(values.data, 'access-log.sqlite')
if (!existsSync(file)) {
  console.error(`audit-verify: no access log at ${file} (start the stack once, or pass --data DIR / --file FILE)`)
  process.exit(2)
}
const log = new AccessLog({ file, readonly: true })
const result = log.verify()
log.close()
if (result.intact) {
  console.log(
    `audit-verify: the access log is intact: ${result.entries} entries checked, ${result.pruned} removed by retention (${file})`,
  )
} else {
  console.error(
    `audit-verify: the access log is BROKEN at entry ${result.brokenAt} (${result.entries} entries read; ${file})`,
  )
  process.exit(1)
}
