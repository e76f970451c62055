import { createHash } from 'node:crypto'

const CRC32C_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

/** CRC32C (Castagnoli) of the bytes, as an unsigned 32-bit number. */
export function crc32cOf(data: Uint8Array): number {
  let crc = 0xffffffff
  for (const byte of data) crc = (CRC32C_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

/** CRC32C as GCS reports it: base64 of the big-endian 4 bytes. */
export function crc32c(data: Buffer): string {
  const out = Buffer.alloc(4)
  out.writeUInt32BE(crc32cOf(data))
  return out.toString('base64')
}

export const md5 = (data: Buffer) => createHash('md5').update(data).digest('base64')
