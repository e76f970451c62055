// The few DER (X.690) structures a self-signed X.509 certificate needs. Node's crypto reads
// certificates but cannot write them, so both writers of this repository build theirs from these:
// emulator-lite's signing-key certificates (src/auth/x509.ts) and the pilot's self-signed TLS
// certificate (infra/docker/pilot/tls.ts, which imports `@bosted/emulator-lite/der`: the pilot-ops
// image is built from the emulator-lite image). Erasable TypeScript only: plain Node runs it there.

/** A DER length: short form below 128, else the long form with its byte count. */
export function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n])
  const bytes: number[] = []
  for (let rest = n; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff)
  return Buffer.from([0x80 | bytes.length, ...bytes])
}

/** Tag, length, value. */
export function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content)
  return Buffer.concat([Buffer.from([tag]), length(body.length), body])
}

export const sequence = (...content: Buffer[]): Buffer => tlv(0x30, ...content)

/** An OBJECT IDENTIFIER from its encoded bytes. */
export const oid = (...bytes: number[]): Buffer => Buffer.from([0x06, bytes.length, ...bytes])

/** A non-negative INTEGER from big-endian bytes: leading zeros dropped, one added when the top bit is set. */
export function integer(value: Buffer): Buffer {
  let bytes = value
  while (bytes.length > 1 && bytes[0] === 0 && ((bytes[1] as number) & 0x80) === 0) bytes = bytes.subarray(1)
  if (((bytes[0] as number) & 0x80) !== 0) bytes = Buffer.concat([Buffer.from([0]), bytes])
  return tlv(0x02, bytes)
}

/** A certificate's validity time (RFC 5280 §4.1.2.5): UTCTime through 2049, GeneralizedTime from 2050. */
export function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14)
  return date.getUTCFullYear() < 2050
    ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`, 'ascii'))
    : tlv(0x18, Buffer.from(`${iso}Z`, 'ascii'))
}

/** A DER certificate as PEM, 64 characters a line. */
export function pem(der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? []
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`
}
