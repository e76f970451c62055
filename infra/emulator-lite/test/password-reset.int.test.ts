import { createHash } from 'node:crypto'
import { once } from 'node:events'
import { createServer, type Server } from 'node:net'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { OobCodes } from '../src/auth/oob.ts'
import { sendMail } from '../src/auth/smtp.ts'
import { type EmulatorLite, startEmulatorLite } from '../src/index.ts'

const PROJECT = 'demo-password-reset'
const EMAIL = 'signe@bosted.test'

/** A tiny SMTP server: accepts every mail and keeps its recipient and decoded body. */
function startSmtpListener(): Promise<{ server: Server; port: number; mails: { to: string; text: string }[] }> {
  const mails: { to: string; text: string }[] = []
  const server = createServer((socket) => {
    socket.setEncoding('utf8')
    let buffer = ''
    let inData = false
    let to = ''
    socket.write('220 test SMTP\r\n')
    socket.on('data', (chunk: string) => {
      buffer += chunk
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n')
          if (end < 0) return
          const message = buffer.slice(0, end)
          buffer = buffer.slice(end + 5)
          inData = false
          const [, body = ''] = message.split('\r\n\r\n')
          mails.push({ to, text: Buffer.from(body.replace(/\r\n/g, ''), 'base64').toString('utf8') })
          socket.write('250 queued\r\n')
          continue
        }
        const index = buffer.indexOf('\r\n')
        if (index < 0) return
        const line = buffer.slice(0, index)
        buffer = buffer.slice(index + 2)
        const verb = line.slice(0, 4).toUpperCase()
        if (verb === 'EHLO') socket.write('250-test\r\n250 8BITMIME\r\n')
        else if (verb === 'RCPT') {
          to = /<([^>]+)>/.exec(line)?.[1] ?? ''
          socket.write('250 ok\r\n')
        } else if (verb === 'DATA') {
          inData = true
          socket.write('354 go on\r\n')
        } else if (verb === 'QUIT') socket.end('221 bye\r\n')
        else socket.write('250 ok\r\n')
      }
    })
  })
  server.listen(0, '127.0.0.1')
  return once(server, 'listening').then(() => ({
    server,
    port: (server.address() as { port: number }).port,
    mails,
  }))
}

let clock = Date.now()
let emulator: EmulatorLite
let smtp: Awaited<ReturnType<typeof startSmtpListener>>

async function auth(
  operation: string,
  body: Record<string, unknown>,
  options: { admin?: boolean } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const port = options.admin ? emulator.adminPort : emulator.authPort
  const response = await fetch(
    `http://127.0.0.1:${port}/identitytoolkit.googleapis.com/v1/accounts:${operation}?key=test-key`,
    {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(options.admin ? { authorization: 'Bearer owner' } : {}),
      },
      body: JSON.stringify(body),
    },
  )
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

const errorOf = (answer: { body: Record<string, unknown> }) => (answer.body.error as { message?: string }).message

async function newAccount(email: string, password = 'gammel-adgangskode-1') {
  await auth('signUp', { email, password }, { admin: true })
  const signedIn = await auth('signInWithPassword', { email, password, returnSecureToken: true })
  return signedIn.body.refreshToken as string
}

async function refresh(refreshToken: string) {
  const response = await fetch(`http://127.0.0.1:${emulator.authPort}/securetoken.googleapis.com/v1/token?key=k`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: refreshToken }),
  })
  return response.status
}

beforeAll(async () => {
  smtp = await startSmtpListener()
  emulator = await startEmulatorLite({
    firestorePort: 0,
    storagePort: 0,
    authPort: 0,
    inMemory: true,
    accessLog: false,
    authProjectId: PROJECT,
    passwordReset: {
      smtp: { host: '127.0.0.1', port: smtp.port, from: 'bosted@kommune.test' },
      resetUrl: 'https://bosted.kommune.test/reset-password',
      now: () => clock,
    },
  })
})

afterAll(async () => {
  await emulator?.close()
  smtp?.server.close()
})

test('a reset mail arrives with a link whose code sets a new password once and ends the old sessions', async () => {
  const oldSession = await newAccount(EMAIL)
  const sent = await auth('sendOobCode', { requestType: 'PASSWORD_RESET', email: EMAIL })
  expect(sent.status).toBe(200)
  expect(smtp.mails).toHaveLength(1)
  const mail = smtp.mails[0]
  expect(mail?.to).toBe(EMAIL)
  expect(mail?.text).toContain('nulstille adgangskoden')
  const link = /https:\/\/bosted\.kommune\.test\/reset-password\?\S+/.exec(mail?.text ?? '')?.[0] ?? ''
  const oobCode = new URL(link).searchParams.get('oobCode') ?? ''
  expect(oobCode).not.toBe('')

  // The link's code names its account without being used up.
  const checked = await auth('resetPassword', { oobCode })
  expect(checked.body).toMatchObject({ requestType: 'PASSWORD_RESET', email: EMAIL })

  const reset = await auth('resetPassword', { oobCode, newPassword: 'ny-og-lang-adgangskode' })
  expect(reset.status).toBe(200)
  expect(errorOf(await auth('resetPassword', { oobCode, newPassword: 'igen-en-anden-kode' }))).toBe('INVALID_OOB_CODE')

  expect(errorOf(await auth('signInWithPassword', { email: EMAIL, password: 'gammel-adgangskode-1' }))).toBe(
    'INVALID_PASSWORD',
  )
  const signedIn = await auth('signInWithPassword', { email: EMAIL, password: 'ny-og-lang-adgangskode' })
  expect(signedIn.status).toBe(200)
  expect(await refresh(oldSession)).toBe(400)
})

test('a reset code stops working after an hour', async () => {
  const email = 'udloeb@bosted.test'
  await newAccount(email)
  const { body } = await auth(
    'sendOobCode',
    { requestType: 'PASSWORD_RESET', email, returnOobLink: true },
    { admin: true },
  )
  const oobCode = body.oobCode as string
  clock += 60 * 60 * 1000 + 1
  expect(errorOf(await auth('resetPassword', { oobCode, newPassword: 'for-sent-alligevel' }))).toBe('EXPIRED_OOB_CODE')
})

test('only a privileged caller gets the code in the answer, and an unknown email is said as Firebase says it', async () => {
  expect(errorOf(await auth('sendOobCode', { requestType: 'PASSWORD_RESET', email: EMAIL, returnOobLink: true }))).toBe(
    'INSUFFICIENT_PERMISSION',
  )
  expect(errorOf(await auth('sendOobCode', { requestType: 'PASSWORD_RESET', email: 'ingen@bosted.test' }))).toBe(
    'EMAIL_NOT_FOUND',
  )
  expect(errorOf(await auth('resetPassword', { oobCode: 'made-up', newPassword: 'noget-helt-andet' }))).toBe(
    'INVALID_OOB_CODE',
  )
})

test('codes are stored only as their hash; with a mailer the control plane lists none', async () => {
  const db = new Database(':memory:')
  const codes = new OobCodes(db)
  const { oobCode } = codes.create(PROJECT, { localId: 'u1', email: EMAIL }, 'PASSWORD_RESET')
  const stored = JSON.stringify(db.prepare('SELECT * FROM auth_oob_codes').all())
  expect(stored).not.toContain(oobCode)
  expect(stored).toContain(createHash('sha256').update(oobCode).digest('hex'))
  // Without a mailer the codes are listed in memory for the admin listener, as the official emulator does.
  expect(codes.listing(PROJECT).map((entry) => entry.oobCode)).toEqual([oobCode])
  db.close()

  await auth('sendOobCode', { requestType: 'PASSWORD_RESET', email: EMAIL })
  const response = await fetch(`http://127.0.0.1:${emulator.adminPort}/emulator/v1/projects/${PROJECT}/oobCodes`)
  expect(((await response.json()) as { oobCodes: unknown[] }).oobCodes).toEqual([])
})

test('an account gets at most five codes an hour', async () => {
  const email = 'mange@bosted.test'
  await newAccount(email)
  for (let index = 0; index < 5; index += 1) {
    expect((await auth('sendOobCode', { requestType: 'PASSWORD_RESET', email })).status).toBe(200)
  }
  expect(errorOf(await auth('sendOobCode', { requestType: 'PASSWORD_RESET', email }))).toBe(
    'RESET_PASSWORD_EXCEED_LIMIT',
  )
  clock += 60 * 60 * 1000 + 1
  expect((await auth('sendOobCode', { requestType: 'PASSWORD_RESET', email })).status).toBe(200)
})

test('the SMTP client never sends a password over a connection without TLS', async () => {
  const before = smtp.mails.length
  await expect(
    sendMail(
      { host: '127.0.0.1', port: smtp.port, from: 'bosted@kommune.test', user: 'relay', password: 'hemmelig' },
      { to: EMAIL, subject: 'Test', text: 'Hej' },
    ),
  ).rejects.toThrow(/no TLS/)
  await expect(
    sendMail(
      { host: '127.0.0.1', port: smtp.port, from: 'bosted@kommune.test' },
      { to: 'a@b.dk\r\nBcc: c@d.dk', subject: 'x', text: 'y' },
    ),
  ).rejects.toThrow(/not a plain address/)
  expect(smtp.mails.length).toBe(before)
})
