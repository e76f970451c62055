import { existsSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { AuthStore } from './auth-store.ts'
import { batchCreate, updateConfig } from './operations.ts'
import { isObject } from './tokens.ts'

export type ImportResult = { source: string; imported: number; failed: { index: number; message: string }[] }

/** Finds `auth_export/accounts.json` in an official export (`--export-on-exit DIR`), or takes the file itself. */
export function findOfficialExport(path: string): string | null {
  const candidates =
    existsSync(path) && statSync(path).isFile()
      ? [path]
      : [join(path, 'auth_export/accounts.json'), join(path, 'accounts.json')]
  return candidates.find((candidate) => existsSync(candidate)) ?? null
}

/**
 * Imports an official Auth emulator export into `project`: its accounts (plaintext passwords in
 * the export's fake hashes are re-hashed with scrypt) and its config.json. Runs only while the
 * database holds no account at all and this export was never imported, so a restart neither
 * duplicates accounts nor brings deleted ones back. Returns null when it did nothing.
 */
export async function importOfficialExport(
  store: AuthStore,
  project: string,
  path: string,
): Promise<ImportResult | null> {
  const file = findOfficialExport(path)
  if (!file) return null
  const source = resolve(file)
  if (store.count() > 0 || store.wasImported(source)) return null
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'))
  const users = isObject(parsed) && Array.isArray(parsed.users) ? parsed.users : []
  const ctx = { store, project, privileged: true }
  const configFile = join(file, '../config.json')
  if (existsSync(configFile)) {
    const config: unknown = JSON.parse(readFileSync(configFile, 'utf8'))
    if (isObject(config)) updateConfig(ctx, config)
  }
  let failed: ImportResult['failed'] = []
  if (users.length > 0) failed = (await batchCreate(ctx, { users, allowOverwrite: true })).error
  store.markImported(source, users.length - failed.length)
  return { source, imported: users.length - failed.length, failed }
}
