// `make audit-verify [ARGS="--data DIR"]`: checks the access log in the store's SQLite file
// (emulator-lite.sqlite): its hash chain, and that every document and file of a person a client
// wrote has its entry (ADR 0017). Exit 0 when both hold, 1 when not, 2 when there is no log to check.

import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import Database from 'better-sqlite3'
import { AccessLog, LEGACY_LOG_FILE, STORE_FILE } from './access-log.ts'
import { loadAccessClassifier } from './classifier.ts'
import { checkWrites } from './cross-check.ts'

const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../..')
const { values } = parseArgs({
  options: {
    data: { type: 'string', default: process.env.EMULATOR_LITE_DATA ?? resolve(repoRoot, '.data/emulator-lite') },
    file: { type: 'string' },
    // Which documents and files are a person's (the app's classifier; none: nothing is cross-checked).
    'access-classifier': { type: 'string', default: process.env.EMULATOR_LITE_ACCESS_CLASSIFIER },
  },
})
// A data directory that no emulator-lite since ADR 0017 has opened still has its log in its own file.
const candidates = values.file ? [values.file] : [join(values.data, STORE_FILE), join(values.data, LEGACY_LOG_FILE)]
const file = candidates.find((candidate) => {
  if (!existsSync(candidate)) return false
  const db = new Database(candidate, { readonly: true, fileMustExist: true })
  try {
    return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'access_log'").get() !== undefined
  } finally {
    db.close()
  }
})
if (file === undefined) {
  console.error(
    `audit-verify: no access log in ${candidates.join(' or ')} (start the stack once, or pass --data DIR / --file FILE)`,
  )
  process.exit(2)
}
const log = new AccessLog({ file, readonly: true })
const result = log.verify()
const writes = checkWrites(log.db, await loadAccessClassifier(values['access-classifier']))
log.close()
let failed = false
if (result.intact) {
  console.log(
    `audit-verify: the access log is intact: ${result.entries} entries checked, ${result.pruned} removed by retention (${file})`,
  )
} else {
  console.error(
    `audit-verify: the access log is BROKEN at entry ${result.brokenAt} (${result.entries} entries read; ${file})`,
  )
  failed = true
}
if (writes === null) {
  console.log('audit-verify: no stored documents to cross-check in this file (a log from before ADR 0017)')
} else if (writes.missingCount === 0) {
  console.log(
    `audit-verify: every one of ${writes.checked} documents and files written by clients has its entry` +
      ` (${writes.pruned} of them removed by retention; ${writes.unchecked} written by the server or before writes carried their entry's seq, not checked)`,
  )
} else {
  console.error(
    `audit-verify: ${writes.missingCount} of ${writes.checked} documents and files written by clients have NO entry in the access log:`,
  )
  for (const missing of writes.missing)
    console.error(`  ${missing.kind} ${missing.name} (entry ${missing.seq ?? 'none'})`)
  if (writes.missingCount > writes.missing.length)
    console.error(`  … and ${writes.missingCount - writes.missing.length} more`)
  failed = true
}
if (failed) process.exit(1)
