import { createReadStream, statSync } from 'node:fs'
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { extname, join, normalize, resolve } from 'node:path'

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
}

export type StaticServerOptions = {
  host: string
  port: number
  webRoot: string
  apiUpstream: { host: string; port: number }
  headers: Record<string, string>
}

/**
 * The fallback when nginx is not installed: the same routes as infra/nginx (SPA fallback, /api
 * proxy, immutable hashed assets, no-cache for index.html and /config.json, security headers).
 */
export function startStaticServer(options: StaticServerOptions): Promise<Server> {
  const root = resolve(options.webRoot)
  const server = createServer((req, res) => {
    for (const [name, value] of Object.entries(options.headers)) res.setHeader(name, value)
    const url = new URL(req.url ?? '/', 'http://localhost')
    if (url.pathname === '/api' || url.pathname.startsWith('/api/')) return proxy(req, res, options.apiUpstream)
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end()
      return
    }
    const candidate = normalize(join(root, decodeURIComponent(url.pathname)))
    const isAsset = url.pathname.startsWith('/assets/')
    // Like nginx: /assets/ and /config.json are files or 404; every other path is the app.
    const hasFallback = !isAsset && url.pathname !== '/config.json'
    const file =
      candidate.startsWith(root) && isFile(candidate) ? candidate : hasFallback ? join(root, 'index.html') : null
    if (file === null || !isFile(file)) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not Found')
      return
    }
    res.setHeader('content-type', CONTENT_TYPES[extname(file)] ?? 'application/octet-stream')
    res.setHeader('cache-control', isAsset ? 'public, max-age=31536000, immutable' : 'no-cache')
    if (req.method === 'HEAD') {
      res.writeHead(200).end()
      return
    }
    createReadStream(file).pipe(res)
  })
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => resolvePromise(server))
  })
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

function proxy(req: IncomingMessage, res: ServerResponse, upstream: { host: string; port: number }): void {
  const forwarded = req.socket.remoteAddress ?? ''
  const upstreamRequest = httpRequest(
    {
      host: upstream.host,
      port: upstream.port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, 'x-forwarded-for': forwarded, 'x-real-ip': forwarded, 'x-forwarded-proto': 'http' },
    },
    (upstreamResponse) => {
      res.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers)
      upstreamResponse.pipe(res)
    },
  )
  upstreamRequest.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ error: { code: 'unavailable', message: 'The api is not reachable.' } }))
  })
  req.pipe(upstreamRequest)
}
