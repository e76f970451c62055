import { randomBytes } from 'node:crypto'
import { connect as netConnect, type Socket } from 'node:net'
import { type TLSSocket, connect as tlsConnect } from 'node:tls'

/**
 * Where mail goes (the pilot's relay, PILOT_SMTP_*): port 465 speaks TLS from the start; any other
 * port upgrades with STARTTLS when the server offers it. A user and password are sent (AUTH PLAIN)
 * only over TLS.
 */
export type SmtpConfig = {
  host: string
  port: number
  user?: string | undefined
  password?: string | undefined
  from: string
  /** The name given in EHLO (default: the host's part of `from`). */
  heloName?: string
  timeoutMs?: number
}

export type MailMessage = { to: string; subject: string; text: string }

export class SmtpError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SmtpError'
  }
}

type Reply = { code: number; lines: string[] }

/** SMTP replies read off a socket: a reply is complete at its line `NNN text` (`NNN-text` continues). */
class Conversation {
  #buffer = ''
  #lines: string[] = []
  #waiting: ((reply: Reply | Error) => void) | null = null
  #ready: Reply[] = []
  #failure: Error | null = null
  socket: Socket | TLSSocket

  constructor(socket: Socket | TLSSocket) {
    this.socket = socket
    this.#listen(socket)
  }

  #listen(socket: Socket | TLSSocket): void {
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      this.#buffer += chunk
      let index = this.#buffer.indexOf('\r\n')
      while (index >= 0) {
        const line = this.#buffer.slice(0, index)
        this.#buffer = this.#buffer.slice(index + 2)
        this.#lines.push(line)
        if (/^\d{3}(?: |$)/.test(line)) {
          this.#deliver({ code: Number(line.slice(0, 3)), lines: this.#lines })
          this.#lines = []
        }
        index = this.#buffer.indexOf('\r\n')
      }
    })
    socket.on('error', (error) => this.#fail(error))
    socket.on('close', () => this.#fail(new SmtpError('the SMTP server closed the connection')))
    socket.on('timeout', () => {
      this.#fail(new SmtpError('the SMTP server did not answer in time'))
      socket.destroy()
    })
  }

  #deliver(reply: Reply): void {
    const waiting = this.#waiting
    this.#waiting = null
    if (waiting) waiting(reply)
    else this.#ready.push(reply)
  }

  #fail(error: Error): void {
    this.#failure ??= error
    const waiting = this.#waiting
    this.#waiting = null
    waiting?.(error)
  }

  /** Switches the conversation to a TLS socket wrapped around the current one (STARTTLS). */
  upgrade(tls: TLSSocket): void {
    this.socket.removeAllListeners('data')
    this.socket.removeAllListeners('close')
    this.socket = tls
    this.#listen(tls)
  }

  read(): Promise<Reply> {
    const ready = this.#ready.shift()
    if (ready) return Promise.resolve(ready)
    if (this.#failure) return Promise.reject(this.#failure)
    return new Promise((resolve, reject) => {
      this.#waiting = (reply) => (reply instanceof Error ? reject(reply) : resolve(reply))
    })
  }

  /** Sends a line (or nothing, for the greeting) and expects one of `codes`. */
  async expect(line: string | null, codes: number[], what: string): Promise<Reply> {
    if (line !== null) this.socket.write(`${line}\r\n`)
    const reply = await this.read()
    if (!codes.includes(reply.code)) {
      throw new SmtpError(`the SMTP server refused ${what}: ${reply.lines.join(' | ')}`)
    }
    return reply
  }
}

/** A header value in RFC 2047 encoded words when it is not plain ASCII. */
function headerText(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=`
}

/** One address as given: no line breaks or angle brackets (nothing that could add a header or a recipient). */
function address(value: string, what: string): string {
  if (!/^[^\s<>@]+@[^\s<>@]+$/.test(value)) throw new SmtpError(`the ${what} address is not a plain address`)
  return value
}

/** The message as sent after DATA: headers, a base64 body (which never holds a line starting with a dot). */
export function formatMessage(from: string, message: MailMessage, now = new Date()): string {
  const domain = from.split('@')[1] ?? 'localhost'
  const body = Buffer.from(message.text, 'utf8').toString('base64').replace(/.{76}/g, '$&\r\n')
  return [
    `From: ${from}`,
    `To: ${message.to}`,
    `Subject: ${headerText(message.subject)}`,
    `Date: ${now.toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <${randomBytes(12).toString('hex')}@${domain}>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    body,
  ].join('\r\n')
}

/**
 * Sends one plain-text mail. A minimal SMTP client (RFC 5321 with STARTTLS and AUTH PLAIN): enough
 * for a municipality's relay, with no dependency (docs/decisions/0023-passwords.md).
 */
export async function sendMail(config: SmtpConfig, message: MailMessage): Promise<void> {
  const from = address(config.from, 'sender')
  const to = address(message.to, 'recipient')
  const timeout = config.timeoutMs ?? 15_000
  const implicitTls = config.port === 465
  const socket: Socket | TLSSocket = implicitTls
    ? tlsConnect({ host: config.host, port: config.port, servername: config.host })
    : netConnect({ host: config.host, port: config.port })
  socket.setTimeout(timeout)
  const smtp = new Conversation(socket)
  let isTls = implicitTls
  try {
    await smtp.expect(null, [220], 'the connection')
    const helo = config.heloName ?? from.split('@')[1] ?? 'localhost'
    let ehlo = await smtp.expect(`EHLO ${helo}`, [250], 'EHLO')
    if (!isTls && ehlo.lines.some((line) => /^250[ -]STARTTLS\b/i.test(line))) {
      await smtp.expect('STARTTLS', [220], 'STARTTLS')
      const tls = tlsConnect({ socket: smtp.socket as Socket, servername: config.host })
      tls.setTimeout(timeout)
      await new Promise<void>((resolve, reject) => {
        tls.once('secureConnect', resolve)
        tls.once('error', reject)
      })
      smtp.upgrade(tls)
      isTls = true
      ehlo = await smtp.expect(`EHLO ${helo}`, [250], 'EHLO after STARTTLS')
    }
    if (config.user) {
      if (!isTls) throw new SmtpError('the SMTP server offers no TLS; the password is not sent in the clear')
      const credentials = Buffer.from(`\0${config.user}\0${config.password ?? ''}`, 'utf8').toString('base64')
      await smtp.expect(`AUTH PLAIN ${credentials}`, [235], 'the credentials')
    }
    await smtp.expect(`MAIL FROM:<${from}>`, [250], 'the sender')
    await smtp.expect(`RCPT TO:<${to}>`, [250, 251], 'the recipient')
    await smtp.expect('DATA', [354], 'DATA')
    await smtp.expect(`${formatMessage(from, { ...message, to })}\r\n.`, [250], 'the message')
    smtp.socket.write('QUIT\r\n')
  } finally {
    smtp.socket.end()
    setTimeout(() => smtp.socket.destroy(), 1_000).unref()
  }
}

/** The relay of PILOT_SMTP_HOST / _PORT (default 587) / _USER / _PASSWORD / _FROM; undefined without a host. */
export function smtpConfigFromEnv(env: NodeJS.ProcessEnv): SmtpConfig | undefined {
  const host = env.PILOT_SMTP_HOST?.trim()
  if (!host) return undefined
  const port = Number(env.PILOT_SMTP_PORT || 587)
  if (!Number.isInteger(port) || port < 1 || port > 65_535)
    throw new SmtpError(`PILOT_SMTP_PORT is not a port: ${env.PILOT_SMTP_PORT}`)
  return {
    host,
    port,
    user: env.PILOT_SMTP_USER || undefined,
    password: env.PILOT_SMTP_PASSWORD || undefined,
    from: env.PILOT_SMTP_FROM || `bosted@${host}`,
  }
}
