import { invalid } from '../http/errors.ts'

export type Part = { headers: Record<string, string>; body: Buffer }

/** Parses a multipart/related body (metadata JSON part, then the raw bytes part). */
export function parseMultipart(body: Buffer, contentType: string): Part[] {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1]
  if (!boundary) throw invalid('multipart body without a boundary')
  const delimiter = Buffer.from(`--${boundary}`)
  const parts: Part[] = []
  let position = body.indexOf(delimiter)
  if (position < 0) throw invalid('multipart body without parts')
  while (position >= 0) {
    let start = position + delimiter.length
    if (body.subarray(start, start + 2).toString() === '--') break
    if (body.subarray(start, start + 2).toString() === '\r\n') start += 2
    const next = body.indexOf(delimiter, start)
    if (next < 0) throw invalid('unterminated multipart body')
    let end = next
    if (body.subarray(end - 2, end).toString() === '\r\n') end -= 2
    const chunk = body.subarray(start, end)
    const split = chunk.indexOf('\r\n\r\n')
    if (split < 0) throw invalid('multipart part without headers')
    const headers: Record<string, string> = {}
    for (const line of chunk.subarray(0, split).toString('utf8').split('\r\n')) {
      const colon = line.indexOf(':')
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
    }
    parts.push({ headers, body: chunk.subarray(split + 4) })
    position = next
  }
  return parts
}
