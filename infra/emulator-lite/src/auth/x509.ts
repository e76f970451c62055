import { createHash, type KeyObject, sign } from 'node:crypto'

// A self-signed X.509 v3 certificate for an RSA public key, as Google publishes its signing keys
// (a `{kid: PEM}` map). Node's crypto parses certificates but cannot create them, so the few DER
// structures a certificate needs are written here; the signature itself is node:crypto's
// RSASSA-PKCS1-v1_5 with SHA-256, and every certificate is checked with X509Certificate in tests.

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n])
  const bytes: number[] = []
  for (let rest = n; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff)
  return Buffer.from([0x80 | bytes.length, ...bytes])
}

const tlv = (tag: number, ...content: Buffer[]) => {
  const body = Buffer.concat(content)
  return Buffer.concat([Buffer.from([tag]), length(body.length), body])
}
const sequence = (...content: Buffer[]) => tlv(0x30, ...content)

function integer(value: Buffer): Buffer {
  let bytes = value
  while (bytes.length > 1 && bytes[0] === 0 && ((bytes[1] as number) & 0x80) === 0) bytes = bytes.subarray(1)
  if (((bytes[0] as number) & 0x80) !== 0) bytes = Buffer.concat([Buffer.from([0]), bytes])
  return tlv(0x02, bytes)
}

function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14)
  // RFC 5280 §4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050.
  return date.getUTCFullYear() < 2050
    ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`, 'ascii'))
    : tlv(0x18, Buffer.from(`${iso}Z`, 'ascii'))
}

/** `CN=<commonName>`: one RDN with one attribute (OID 2.5.4.3, UTF8String). */
const name = (commonName: string) =>
  sequence(tlv(0x31, sequence(Buffer.from([0x06, 0x03, 0x55, 0x04, 0x03]), tlv(0x0c, Buffer.from(commonName)))))

/** sha256WithRSAEncryption (1.2.840.113549.1.1.11) with NULL parameters. */
const SHA256_WITH_RSA = sequence(
  Buffer.from([0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0b]),
  Buffer.from([0x05, 0x00]),
)

export type CertificateOptions = {
  publicKey: KeyObject
  privateKey: KeyObject
  commonName: string
  notBefore: Date
  notAfter: Date
}

/**
 * A self-signed certificate (PEM) for `publicKey`, signed by its `privateKey`. Deterministic for the
 * same inputs (PKCS#1 v1.5 signatures are), so it need not be stored beside the key.
 */
export function selfSignedCertificate(options: CertificateOptions): string {
  const spki = options.publicKey.export({ type: 'spki', format: 'der' })
  const serial = createHash('sha256').update(spki).digest().subarray(0, 16)
  serial[0] = ((serial[0] as number) & 0x7f) | 0x01
  const subject = name(options.commonName)
  const tbs = sequence(
    tlv(0xa0, integer(Buffer.from([2]))),
    integer(serial),
    SHA256_WITH_RSA,
    subject,
    sequence(time(options.notBefore), time(options.notAfter)),
    subject,
    spki,
  )
  const signature = sign('sha256', tbs, options.privateKey)
  const der = sequence(tbs, SHA256_WITH_RSA, tlv(0x03, Buffer.from([0]), signature))
  const lines = der.toString('base64').match(/.{1,64}/g) ?? []
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`
}
