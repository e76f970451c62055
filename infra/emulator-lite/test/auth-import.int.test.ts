import type { ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@bosted/stack/ports'
import { startAuthEmulator } from '@bosted/stack/services/auth-emulator'
import { signInWithEmailAndPassword } from 'firebase/auth'
import { expect, test } from 'vitest'
import { type AuthTarget, connectAuthClients, errorCode } from './auth-support.ts'
import { startCliProcess } from './cli-process.ts'

const PROJECT = 'demo-auth-import'
const PASSWORD = 'Importeret-Hemmelighed-7'

const startCli = (args: string[]) => startCliProcess(['--firestore-port', '0', '--storage-port', '0', ...args])

test('accounts exported by the official emulator on exit move into emulator-lite once, passwords re-hashed', async () => {
  const workDir = mkdtempSync(join(tmpdir(), 'official-auth-export-'))
  const dataDir = mkdtempSync(join(tmpdir(), 'emulator-lite-auth-import-'))
  const officialPort = await freePort()
  const official = await startAuthEmulator({
    host: '127.0.0.1',
    port: officialPort,
    hubPort: await freePort(),
    loggingPort: await freePort(),
    projectId: PROJECT,
    workDir,
    persist: true,
  })
  const officialTarget: AuthTarget = {
    name: 'official',
    host: `127.0.0.1:${officialPort}`,
    adminHost: `127.0.0.1:${officialPort}`,
    projectId: PROJECT,
    signed: false,
    serviceAccount: null,
    close: async () => {},
  }
  const before = connectAuthClients(officialTarget)
  let lite: ChildProcess | undefined
  try {
    await before.admin.createUser({ uid: 'pia', email: 'Pia@Example.dk', password: PASSWORD, displayName: 'Pia' })
    await before.admin.setCustomUserClaims('pia', { role: 'admin' })
    await before.admin.createUser({ uid: 'ole', email: 'ole@example.dk', password: PASSWORD, disabled: true })
    await before.admin.createUser({ uid: 'uden-kode', email: 'uden@example.dk' })
    await before.close()
    // A clean stop is when the official emulator writes its export.
    await official.stop()
    const exportDir = join(workDir, 'data')
    expect(existsSync(join(exportDir, 'auth_export/accounts.json'))).toBe(true)

    const authPort = await freePort()
    const adminPort = await freePort()
    const args = ['--auth-port', String(authPort), '--admin-port', String(adminPort), '--project', PROJECT]
    args.push('--data', dataDir, '--import-auth', exportDir)
    let started = await startCli(args)
    lite = started.child
    expect(started.output()).toContain('imported 3 Auth accounts')
    const target: AuthTarget = {
      name: 'emulator-lite',
      host: `127.0.0.1:${authPort}`,
      adminHost: `127.0.0.1:${adminPort}`,
      projectId: PROJECT,
      signed: true,
      serviceAccount: null,
      close: async () => {},
    }
    const after = connectAuthClients(target)
    try {
      const { user } = await signInWithEmailAndPassword(after.web, 'pia@example.dk', PASSWORD)
      expect(user.uid).toBe('pia')
      expect((await user.getIdTokenResult()).claims.role).toBe('admin')
      expect(await signInWithEmailAndPassword(after.web, 'ole@example.dk', PASSWORD).catch(errorCode)).toBe(
        'auth/user-disabled',
      )
      expect((await after.admin.getUser('uden-kode')).email).toBe('uden@example.dk')
      // Files only: upload-spool/ is a directory (empty here).
      for (const file of readdirSync(dataDir).filter((name) => statSync(join(dataDir, name)).isFile())) {
        expect(readFileSync(join(dataDir, file)).includes(PASSWORD), file).toBe(false)
      }

      // Deleted after the import, the account stays deleted across restarts with the same flag.
      await after.admin.deleteUser('uden-kode')
      lite.kill('SIGKILL')
      await once(lite, 'exit')
      started = await startCli(args)
      lite = started.child
      expect(started.output()).not.toContain('imported')
      expect(await after.admin.getUser('uden-kode').catch(errorCode)).toBe('auth/user-not-found')
      expect((await after.admin.getUser('pia')).displayName).toBe('Pia')
    } finally {
      await after.close()
    }
  } finally {
    lite?.kill('SIGKILL')
    await official.stop()
    rmSync(workDir, { recursive: true, force: true })
    rmSync(dataDir, { recursive: true, force: true })
  }
}, 120_000)
