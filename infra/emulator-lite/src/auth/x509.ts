import { createHash, type KeyObject, sign } from 'node:crypto'
import { integer, oid, pem, sequence, time, tlv } from '../der.ts'

// A self-signed X.509 v3 certificate for an RSA public key, as Google publishes its signing keys
// (a `{kid: PEM}` map). Node's crypto parses certificates but cannot create them, so the few DER
// structures a certificate needs come from ../der.ts; the signature itself is node:crypto's
// RSASSA-PKCS1-v1_5 with SHA-256, and every certificate is checked with X509Certificate in tests.

/** `CN=<commonName>`: one RDN with one attribute (OID 2.5.4.3, UTF8String). */
const name = (commonName: string) =>
  sequence(tlv(0x31, sequence(oid(0x55, 0x04, 0x03), tlv(0x0c, Buffer.from(commonName)))))

/** sha256WithRSAEncryption (1.2.840.113549.1.1.11) with NULL parameters. */
const SHA256_WITH_RSA = sequence(oid(0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0b), Buffer.from([0x05, 0x00]))

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
  return pem(der)
}
