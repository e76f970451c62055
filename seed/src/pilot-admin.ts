// `make pilot-admin EMAIL=… [FIRST_NAME=… LAST_NAME=…]`: an administrator of a pilot, with a generated
// password printed once (nobody else ever sees it; it is stored only as Auth's salted hash). Runs in
// the pilot's `ops` container, against emulator-lite's admin listener on the Compose network.
// Refuses an e-mail address that already has an account.

import { randomInt } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { displayName } from '@bosted/domain/names'
import { userPath } from '@bosted/domain/paths'
import { UserSchema } from '@bosted/domain/user'
import { readSeedEnv } from './env.ts'
import { connectFirebase } from './lib/firebase.ts'
import { assertEmulatorsReachable } from './lib/reachable.ts'
import { isPilot } from './migrate-project.ts'

/** Letters and digits without look-alikes (0/O, 1/l/I): 20 of them are about 115 bits. */
const ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789'

export function generatePassword(length = 20): string {
  let password = ''
  while (password.length < length) password += ALPHABET[randomInt(ALPHABET.length)]
  // Groups of five, for reading aloud and typing.
  return password.match(/.{1,5}/g)?.join('-') ?? password
}

export async function createPilotAdmin(options: {
  email: string
  firstName: string
  lastName: string
  env: ReturnType<typeof readSeedEnv>
}): Promise<{ uid: string; password: string }> {
  const { env } = options
  await assertEmulatorsReachable(env.emulators)
  const clients = connectFirebase({ ...env, emulators: env.emulators })
  try {
    if (!(await isPilot(clients.db))) throw new Error(`project ${env.projectId} is not a pilot`)
    const existing = await clients.auth.getUserByEmail(options.email).catch(() => null)
    if (existing) throw new Error(`${options.email} already has an account (${existing.uid}); nothing was changed`)
    const password = generatePassword()
    const record = await clients.auth.createUser({
      email: options.email,
      password,
      displayName: displayName(options),
    })
    await clients.auth.setCustomUserClaims(record.uid, { admin: true, userRole: 'admin' })
    const user = UserSchema.parse({
      id: record.uid,
      firstName: options.firstName,
      lastName: options.lastName,
      createdAt: new Date().toISOString(),
      contact: { email: options.email, phone: null },
      jobRole: 'Administrator',
      userRole: 'admin',
      locale: 'da',
    })
    await clients.db.doc(userPath(record.uid)).set(user)
    return { uid: record.uid, password }
  } finally {
    await clients.close()
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const { values } = parseArgs({
      options: {
        email: { type: 'string' },
        'first-name': { type: 'string', default: 'Administrator' },
        'last-name': { type: 'string', default: '' },
      },
    })
    const email = values.email?.trim().toLowerCase() ?? ''
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
      throw new Error('give the administrator an e-mail: EMAIL=name@kommune.dk')
    const { uid, password } = await createPilotAdmin({
      email,
      firstName: values['first-name'],
      lastName: values['last-name'],
      env: readSeedEnv(),
    })
    console.log(`pilot-admin: ${email} is an administrator (uid ${uid})`)
    console.log(`pilot-admin: password (shown once, give it to ${email} in person): ${password}`)
  } catch (error) {
    console.error(`pilot-admin failed: ${error instanceof Error ? error.message : String(error)}`)
    process.exit(1)
  }
}
