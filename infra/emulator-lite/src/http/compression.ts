import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'
import { pipeline } from 'node:stream'
import {
  type BrotliOptions,
  brotliCompressSync,
  constants,
  createBrotliCompress,
  createGzip,
  gzipSync,
  type ZlibOptions,
} from 'node:zlib'

/**
 * Compression of emulator-lite's JSON answers (Firestore, Storage metadata, Auth), as Google's front
 * ends compress them (ADR 0028): brotli when the client offers it, else gzip, else identity; answers
 * under MIN_COMPRESSED_BYTES go as they are, and answers from STREAM_FROM_BYTES on leave as a
 * zlib stream (chunked) instead of being compressed whole first. Storage media never passes here.
 */
export type Encoding = 'br' | 'gzip'

/** Smaller answers go uncompressed: they fit one TCP segment either way (figures: ADR 0028). */
export const MIN_COMPRESSED_BYTES = 1024
/**
 * From this size an answer is compressed as a stream on the thread pool; below, at once with a
 * Content-Length. Measured (ADR 0028): below 1 MiB at once holds the event loop ≤ 1.4 ms, and a
 * stream's thread-pool round trips cost more than that on a busy 2-core machine (p99 up to 236 ms).
 */
export const STREAM_FROM_BYTES = 1024 * 1024

/**
 * The fastest levels (bench/compression-bench.ts, ADR 0028): on a runQuery answer of 1,000
 * registrations gzip 1 is 4 % larger than gzip 6 for a fraction of its time, and brotli 1 is both
 * faster than any gzip level and smaller than gzip 6. Higher brotli qualities save a few KB for
 * milliseconds of CPU (11, zlib's default, takes seconds).
 */
const GZIP: ZlibOptions = { level: 1 }
const BROTLI_QUALITY = 1

function brotliOptions(size: number): BrotliOptions {
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: size,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  }
}

/**
 * The encoding to answer with, from an Accept-Encoding header (RFC 9110 §12.5.3): brotli if it is
 * acceptable, else gzip (or its alias x-gzip), else none. A coding is acceptable when listed with a
 * q above 0, or covered by `*` with a q above 0 and not listed itself. The client's order and q
 * values are not a preference between acceptable codings: like Google's front ends, brotli wins.
 */
export function negotiateEncoding(header: string | string[] | undefined): Encoding | null {
  if (header === undefined) return null
  const text = Array.isArray(header) ? header.join(',') : header
  if (text === '') return null
  let br: boolean | undefined
  let gzip: boolean | undefined
  let any: boolean | undefined
  for (const part of text.split(',')) {
    const [rawName, ...params] = part.split(';')
    const name = (rawName ?? '').trim().toLowerCase()
    let q = 1
    for (const param of params) {
      const match = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(param)
      if (match) q = Number(match[1])
    }
    const acceptable = Number.isFinite(q) && q > 0
    if (name === 'br') br = acceptable
    else if (name === 'gzip' || name === 'x-gzip') gzip = gzip === true || acceptable
    else if (name === '*') any = acceptable
  }
  if (br ?? any) return 'br'
  if (gzip ?? any) return 'gzip'
  return null
}

/** Adds Accept-Encoding to a Vary value (the CORS middleware's `Origin`, or one set on the reply). */
function varyWith(existing: unknown): string {
  if (existing === undefined || existing === null || existing === '') return 'Accept-Encoding'
  const text = Array.isArray(existing) ? existing.join(', ') : String(existing)
  return /(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(text) ? text : `${text}, Accept-Encoding`
}

/**
 * Writes a JSON answer to the socket, compressed when the client accepts it and the answer is large
 * enough: below STREAM_FROM_BYTES compressed at once (Content-Length of the compressed bytes), from
 * it through a zlib stream (no Content-Length: chunked on HTTP/1.1). Every answer carries
 * `Vary: Accept-Encoding`. A HEAD request and a reply without a body (204, 304) are never compressed.
 */
export function writeJsonBody(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: OutgoingHttpHeaders,
  text: string,
): void {
  const size = Buffer.byteLength(text)
  const vary = varyWith(headers.vary ?? res.getHeader('vary'))
  if (status === 204 || status === 304) {
    res.writeHead(status, { ...headers, vary })
    res.end()
    return
  }
  const encoding =
    size < MIN_COMPRESSED_BYTES || req.method === 'HEAD' ? null : negotiateEncoding(req.headers['accept-encoding'])
  if (encoding === null) {
    res.writeHead(status, { ...headers, vary, 'content-length': size })
    res.end(text)
    return
  }
  if (size < STREAM_FROM_BYTES) {
    const body = encoding === 'br' ? brotliCompressSync(text, brotliOptions(size)) : gzipSync(text, GZIP)
    res.writeHead(status, { ...headers, vary, 'content-encoding': encoding, 'content-length': body.length })
    res.end(body)
    return
  }
  res.writeHead(status, { ...headers, vary, 'content-encoding': encoding })
  const compressor = encoding === 'br' ? createBrotliCompress(brotliOptions(size)) : createGzip(GZIP)
  // pipeline destroys the compressor when the client goes away, and the socket when zlib fails:
  // a cut-off answer is then a failed one, never a truncated one taken for whole.
  pipeline(compressor, res, (error) => {
    if (error && !res.destroyed) res.destroy(error)
  })
  compressor.end(text)
}
