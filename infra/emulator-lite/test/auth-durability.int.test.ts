import type { ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '@bosted/stack/ports'
import { signInWithEmailAndPassword, signOut } from 'firebase/auth'
import { expect, test } from 'vitest'
import { type AuthTarget, call, connectAuthClients, errorCode, nextSecond, verifyAsAdmin } from './auth-support.ts'
import { startCliProcess } from './cli-process.ts'

const PROJECT = 'demo-auth-durability'
const PASSWORD = 'Durabel-Hemmelighed-42'

async function startCli(dataDir: string, authPort: number, adminPort: number): Promise<ChildProcess> {
  const args = ['--firestore-port', '0', '--storage-port', '0', '--auth-port', String(authPort)]
  args.push('--admin-port', String(adminPort))
  return (await startCliProcess([...args, '--project', PROJECT, '--data', dataDir])).child
}

type Expected = { claims?: Record<string, unknown>; disabled?: boolean; displayName?: string }

test('every acknowledged account, claim, disabled flag and revocation survives kill -9 in the middle of a burst', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'emulator-lite-auth-durability-'))
  const authPort = await freePort()
  const adminPort = await freePort()
  const target: AuthTarget = {
    name: 'emulator-lite',
    host: `127.0.0.1:${authPort}`,
    adminHost: `127.0.0.1:${adminPort}`,
    projectId: PROJECT,
    signed: true,
    serviceAccount: null,
    close: async () => {},
  }
  let child = await startCli(dataDir, authPort, adminPort)
  const sdk = connectAuthClients(target)
  try {
    // Tokens issued before a revocation, and one that is not revoked.
    const tokens = new Map<string, string>()
    const refreshTokens: string[] = []
    for (const uid of ['revoked-1', 'revoked-2', 'kept']) {
      await sdk.admin.createUser({ uid, email: `${uid}@example.dk`, password: PASSWORD })
      const { user } = await signInWithEmailAndPassword(sdk.web, `${uid}@example.dk`, PASSWORD)
      tokens.set(uid, await user.getIdToken())
      refreshTokens.push(user.refreshToken)
      await signOut(sdk.web)
    }
    await nextSecond()
    await sdk.admin.revokeRefreshTokens('revoked-1')
    await sdk.admin.revokeRefreshTokens('revoked-2')
    await call(target, 'PATCH', `/emulator/v1/projects/${PROJECT}/config`, {
      body: { emailPrivacyConfig: { enableImprovedEmailPrivacy: true } },
    })

    // Each step is recorded only once the emulator acknowledged it; the one in flight at the kill
    // may or may not have landed.
    const acknowledged = new Map<string, Expected>()
    let inFlight: [string, Expected] | undefined
    const step = async (uid: string, expected: Expected, write: () => Promise<unknown>) => {
      inFlight = [uid, expected]
      await write()
      acknowledged.set(uid, expected)
      inFlight = undefined
    }
    let stopped: unknown
    const burst = (async () => {
      for (let i = 0; i < 10_000; i++) {
        const uid = `burst-${String(i).padStart(5, '0')}`
        const displayName = `Nr ${i}`
        const claims = { i, role: 'borger' }
        await step(uid, { displayName }, () =>
          sdk.admin.createUser({ uid, email: `${uid}@example.dk`, password: PASSWORD, displayName }),
        )
        await step(uid, { displayName, claims }, () => sdk.admin.setCustomUserClaims(uid, claims))
        if (i % 2 === 0) {
          await step(uid, { displayName, claims, disabled: true }, () => sdk.admin.updateUser(uid, { disabled: true }))
        }
      }
    })().catch((error: unknown) => {
      stopped = error ?? 'stopped'
    })
    while (acknowledged.size < 40 && !stopped) await new Promise((resolve) => setTimeout(resolve, 5))
    child.kill('SIGKILL')
    await once(child, 'exit')
    await burst
    expect(stopped).toBeDefined()

    // Neither a password nor a live token is in the database files.
    // Files only: upload-spool/ is a directory (empty here).
    for (const file of readdirSync(dataDir).filter((name) => statSync(join(dataDir, name)).isFile())) {
      const bytes = readFileSync(join(dataDir, file))
      expect(bytes.includes(PASSWORD), file).toBe(false)
      for (const token of [...tokens.values(), ...refreshTokens]) expect(bytes.includes(token), file).toBe(false)
    }

    child = await startCli(dataDir, authPort, adminPort)
    const stateOf = (record: { displayName?: string; customClaims?: Record<string, unknown>; disabled: boolean }) => ({
      displayName: record.displayName,
      claims: record.customClaims ?? {},
      disabled: record.disabled,
    })
    const normal = (expected: Expected) => ({
      displayName: expected.displayName,
      claims: expected.claims ?? {},
      disabled: expected.disabled ?? false,
    })
    for (const [uid, expected] of acknowledged) {
      const stored = stateOf(await sdk.admin.getUser(uid))
      const allowed = [normal(expected)]
      if (inFlight?.[0] === uid) allowed.push(normal(inFlight[1]))
      expect(allowed, uid).toContainEqual(stored)
    }
    const enabled = [...acknowledged].find(([uid, expected]) => !expected.disabled && uid !== inFlight?.[0])
    if (enabled) {
      const { user } = await signInWithEmailAndPassword(sdk.web, `${enabled[0]}@example.dk`, PASSWORD)
      expect(user.uid).toBe(enabled[0])
    }
    const disabled = [...acknowledged].find(([, expected]) => expected.disabled)
    if (disabled) {
      const refused = await signInWithEmailAndPassword(sdk.web, `${disabled[0]}@example.dk`, PASSWORD).catch(errorCode)
      expect(refused).toBe('auth/user-disabled')
    }
    // The protection set before the kill still hides which emails exist.
    expect(await signInWithEmailAndPassword(sdk.web, 'kept@example.dk', 'forkert-1').catch(errorCode)).toBe(
      'auth/invalid-credential',
    )
    // The signing key survived the kill: tokens minted before it verify against the published keys.
    const verify = (uid: string) => verifyAsAdmin(target, sdk.admin, tokens.get(uid) as string)
    expect(await verify('revoked-1').catch(errorCode)).toBe('auth/id-token-revoked')
    expect(await verify('revoked-2').catch(errorCode)).toBe('auth/id-token-revoked')
    expect((await verify('kept')).uid).toBe('kept')
  } finally {
    child.kill('SIGKILL')
    await sdk.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}, 120_000)
