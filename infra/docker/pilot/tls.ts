// The pilot's TLS certificate (docker-compose.pilot.yml, one-shot service `tls`), into the `tls`
// volume that nginx reads:
//   - the municipality's own certificate when PILOT_TLS_CERT/PILOT_TLS_KEY were given: `make pilot`
//     copies them to .pilot/tls-input/, mounted here read-only; checked (a certificate, a key that
//     belongs to it, not expired) and installed;
//   - otherwise a self-signed one for PILOT_HOST, generated once and kept (renewed only when it
//     names another host or expires within 30 days).
// Either way the SHA-256 fingerprint is printed, for people to compare with what their browser shows.
// Node's crypto reads certificates but cannot write them: the DER structures come from emulator-lite's
// writer (`@bosted/emulator-lite/der`, in this image because pilot-ops is built from emulator-lite's);
// the server certificate's own parts (subjectAltName, which browsers require) are written here.
import { createPrivateKey, generateKeyPairSync, type KeyObject, randomBytes, sign, X509Certificate } from 'node:crypto'
import { chownSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { isIP } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { integer, oid, pem, sequence, time, tlv } from '@bosted/emulator-lite/der'

const DAY = 24 * 60 * 60 * 1000

const utf8 = (text: string) => tlv(0x0c, Buffer.from(text, 'utf8'))
const extension = (id: Buffer, critical: boolean, value: Buffer) =>
  sequence(id, ...(critical ? [Buffer.from([0x01, 0x01, 0xff])] : []), tlv(0x04, value))

function ipBytes(address: string): Buffer {
  if (isIP(address) === 4) return Buffer.from(address.split('.').map(Number))
  const [head = '', tail = ''] = address.split('::')
  const groups = (part: string) => (part ? part.split(':') : [])
  const missing = 8 - groups(head).length - groups(tail).length
  const all = [...groups(head), ...Array(address.includes('::') ? missing : 0).fill('0'), ...groups(tail)]
  return Buffer.concat(all.map((group) => Buffer.from(group.padStart(4, '0'), 'hex')))
}

/** A self-signed ECDSA P-256 server certificate for `host` (and localhost), valid `days` days. */
export function selfSignedServerCertificate(
  host: string,
  { days = 397, now = new Date() }: { days?: number; now?: Date } = {},
): { cert: string; key: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const names = [...new Set([host, 'localhost'])]
  const altNames = sequence(
    ...names.map((name) => (isIP(name) ? tlv(0x87, ipBytes(name)) : tlv(0x82, Buffer.from(name, 'ascii')))),
    ...(isIP(host) ? [] : [tlv(0x87, Buffer.from([127, 0, 0, 1]))]),
  )
  const ecdsaWithSha256 = sequence(oid(0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02))
  const subject = sequence(
    tlv(0x31, sequence(oid(0x55, 0x04, 0x0a), utf8('Bosted pilot (self-signed)'))),
    tlv(0x31, sequence(oid(0x55, 0x04, 0x03), utf8(host))),
  )
  const tbs = sequence(
    tlv(0xa0, integer(Buffer.from([2]))),
    integer(randomBytes(16)),
    ecdsaWithSha256,
    subject,
    sequence(time(new Date(now.getTime() - DAY)), time(new Date(now.getTime() + days * DAY))),
    subject,
    publicKey.export({ type: 'spki', format: 'der' }),
    tlv(
      0xa3,
      sequence(
        extension(oid(0x55, 0x1d, 0x13), true, sequence()),
        extension(oid(0x55, 0x1d, 0x0f), true, Buffer.from([0x03, 0x02, 0x07, 0x80])),
        extension(oid(0x55, 0x1d, 0x25), false, sequence(oid(0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x01))),
        extension(oid(0x55, 0x1d, 0x11), false, altNames),
      ),
    ),
  )
  const signature = sign('sha256', tbs, { key: privateKey, dsaEncoding: 'der' })
  const der = sequence(tbs, ecdsaWithSha256, tlv(0x03, Buffer.from([0]), signature))
  return {
    cert: pem(der),
    key: String(privateKey.export({ type: 'pkcs8', format: 'pem' })),
  }
}

/** The checks a certificate must pass before nginx gets it; throws a message for people. */
export function checkCertificate(certPem: string, keyPem: string, now = new Date()): X509Certificate {
  let cert: X509Certificate
  try {
    cert = new X509Certificate(certPem)
  } catch (error) {
    throw new Error(`PILOT_TLS_CERT is not a PEM certificate (${(error as Error).message})`)
  }
  let key: KeyObject
  try {
    key = createPrivateKey(keyPem)
  } catch (error) {
    throw new Error(`PILOT_TLS_KEY is not a PEM private key (${(error as Error).message})`)
  }
  if (!cert.checkPrivateKey(key)) throw new Error('PILOT_TLS_KEY is not the private key of PILOT_TLS_CERT')
  if (new Date(cert.validTo).getTime() < now.getTime()) throw new Error(`PILOT_TLS_CERT expired on ${cert.validTo}`)
  return cert
}

/** Whether a generated certificate can stay: it names `host` and is valid for 30 more days. */
function stillGood(certPem: string, host: string, now: Date): boolean {
  try {
    const cert = new X509Certificate(certPem)
    const names = cert.subjectAltName ?? ''
    const named = names.split(', ').some((entry) => entry === `DNS:${host}` || entry === `IP Address:${host}`)
    return named && new Date(cert.validTo).getTime() > now.getTime() + 30 * DAY
  } catch {
    return false
  }
}

/**
 * Installs the certificate nginx serves into `tlsDir` (cert.pem, key.pem, source) and returns what
 * happened. `owner` (uid:gid) is nginx's user, who must read the key.
 */
export function ensureCertificate({
  tlsDir,
  inputDir,
  host,
  owner,
  now = new Date(),
}: {
  tlsDir: string
  inputDir: string
  host: string
  owner?: string
  now?: Date
}): {
  action: 'provided' | 'kept' | 'generated'
  fingerprint: string
  validTo: string
  subject: string
  certFile: string
} {
  const certFile = join(tlsDir, 'cert.pem')
  const keyFile = join(tlsDir, 'key.pem')
  const sourceFile = join(tlsDir, 'source')
  const givenCert = join(inputDir, 'cert.pem')
  const givenKey = join(inputDir, 'key.pem')
  let action: 'provided' | 'kept' | 'generated'
  if (existsSync(givenCert) && existsSync(givenKey)) {
    const certPem = readFileSync(givenCert, 'utf8')
    const keyPem = readFileSync(givenKey, 'utf8')
    checkCertificate(certPem, keyPem, now)
    writeFileSync(certFile, certPem, { mode: 0o644 })
    writeFileSync(keyFile, keyPem, { mode: 0o600 })
    writeFileSync(sourceFile, 'provided\n')
    action = 'provided'
  } else {
    const generated = existsSync(sourceFile) && readFileSync(sourceFile, 'utf8').trim() === 'self-signed'
    if (generated && existsSync(certFile) && stillGood(readFileSync(certFile, 'utf8'), host, now)) action = 'kept'
    else {
      const { cert, key } = selfSignedServerCertificate(host, { now })
      writeFileSync(keyFile, key, { mode: 0o600 })
      writeFileSync(certFile, cert, { mode: 0o644 })
      writeFileSync(sourceFile, 'self-signed\n')
      action = 'generated'
    }
  }
  if (owner) {
    const [uid = 0, gid = uid] = owner.split(':').map(Number)
    chownSync(keyFile, uid, gid)
  }
  const cert = new X509Certificate(readFileSync(certFile, 'utf8'))
  return { action, fingerprint: cert.fingerprint256, validTo: cert.validTo, subject: cert.subject, certFile }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const host = process.env.PILOT_HOST || 'localhost'
  try {
    const result = ensureCertificate({
      tlsDir: process.env.TLS_DIR || '/tls',
      inputDir: process.env.TLS_INPUT_DIR || '/tls-input',
      host,
      owner: process.env.TLS_KEY_OWNER || '101:101',
    })
    const what = {
      provided: 'the certificate from PILOT_TLS_CERT/PILOT_TLS_KEY',
      kept: `the self-signed certificate generated earlier for ${host}`,
      generated: `a new self-signed certificate for ${host}`,
    }[result.action]
    console.log(`tls: serving ${what}, valid until ${result.validTo}`)
    console.log(`tls: SHA-256 fingerprint ${result.fingerprint}`)
    if (result.action !== 'provided') {
      console.log(
        'tls: browsers will warn until it is trusted; to use your own, set PILOT_TLS_CERT and PILOT_TLS_KEY in .env and run make pilot again (docs/pilot.md)',
      )
    }
  } catch (error) {
    console.error(`tls: ${error instanceof Error ? error.message : String(error)}`)
    process.exitCode = 1
  }
}
