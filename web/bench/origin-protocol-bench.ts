// The pilot's origin over HTTP/1.1 against HTTP/2 on the care home's tablet (issue 34): the real
// pilot edge (startPilotEdge: infra/nginx/pilot.conf.template rendered as the web image does, TLS,
// gzip 5) serving this build's web/dist, with `listen … ssl http2` as shipped and with `http2` taken out.
// The tablet's profile of web/bench/tablet-bench.ts: 10/5 Mbit/s and 40 ms round trip, here as a TCP
// proxy whose links all connections share (tcp-shaper.ts: Chromium's own network emulation stalls
// HTTP/2 fetches), and the CPU slowed 4× through the DevTools protocol. Cold cache (a fresh context
// each run), Chromium fetches a signed-in page's code in the two waves the app asks for it: the shell's
// files at once (the entry's modulepreloads), then the route's files beyond the shell at once (its
// preload list). Fetched, not run: what the protocol changes is the transfer. Prints median and p90 per
// page and protocol, the number of files (JS and CSS) and the bytes.
//
//   npm run build -w web && node --import tsx web/bench/origin-protocol-bench.ts   (ORIGIN_BENCH_RUNS=N, default 7)
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { canRunPilotEdge, startPilotEdge } from '@bosted/stack/pilot-edge'
import { launchBenchChromium } from './bench-browser.ts'
import { percentile } from './bench-location.ts'
import { type Manifest, SHELL_KEYS } from './bundle-budgets.ts'
import { startTcpShaper } from './tcp-shaper.ts'

const RUNS = Math.max(1, Number(process.env.ORIGIN_BENCH_RUNS ?? 7))
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..')
const DIST = join(ROOT, 'web/dist')
const PAGES = {
  '/daily': 'src/app/routes/daily.tsx',
  '/notes': 'src/app/routes/notes.tsx',
  '/admin': 'src/app/routes/admin/index.tsx',
  '/statistics': 'src/app/routes/statistics/statistics.tsx',
}

if (!existsSync(join(DIST, '.vite/manifest.json'))) throw new Error('no web/dist: run `npm run build -w web` first')
if (!canRunPilotEdge()) throw new Error('the pilot edge needs nginx and openssl')
const manifest = JSON.parse(readFileSync(join(DIST, '.vite/manifest.json'), 'utf8')) as Manifest
/** The JS and CSS files the given entries load with their static imports. */
function code(keys: string[], files = new Set<string>()): Set<string> {
  for (const key of keys) {
    const entry = manifest[key]
    if (entry === undefined || files.has(entry.file)) continue
    files.add(entry.file)
    for (const css of entry.css ?? []) files.add(css)
    code(entry.imports ?? [], files)
  }
  return files
}
const shell = [...code(SHELL_KEYS)].filter((file) => !file.endsWith('.html'))
const waves = Object.fromEntries(
  Object.entries(PAGES).map(([page, route]) => [
    page,
    [
      shell.map((file) => `/${file}`),
      [...code([route])].filter((file) => !shell.includes(file)).map((file) => `/${file}`),
    ],
  ]),
)

const browser = await launchBenchChromium(['--ignore-certificate-errors', '--no-sandbox', '--disable-gpu'])
type Result = { ms: number[]; bytes: number; files: number; protocol: string }
const results = new Map<string, Result>()
try {
  for (const http2 of [false, true]) {
    // Nothing behind the edge but the files: the upstreams are a closed port.
    const closed = '127.0.0.1:9'
    const edge = await startPilotEdge({
      webRoot: DIST,
      upstreams: { api: closed, auth: closed, firestore: closed, storage: closed },
      http2,
    })
    const shaper = await startTcpShaper(edge.port)
    const origin = `https://127.0.0.1:${shaper.port}`
    try {
      for (const [page, [first, second]] of Object.entries(waves)) {
        const result: Result = { ms: [], bytes: 0, files: (first?.length ?? 0) + (second?.length ?? 0), protocol: '' }
        for (let run = 0; run < RUNS; run += 1) {
          const context = await browser.newContext({ viewport: { width: 768, height: 1024 } })
          const tab = await context.newPage()
          await tab.goto(`${origin}/config.json`)
          const cdp = await context.newCDPSession(tab)
          await cdp.send('Network.enable')
          await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
          let bytes = 0
          cdp.on('Network.loadingFinished', (event) => {
            bytes += event.encodedDataLength
          })
          const measured = await tab.evaluate(
            async (lists: string[][]) => {
              const started = performance.now()
              for (const list of lists) await Promise.all(list.map((url) => fetch(url).then((answer) => answer.blob())))
              const protocols = performance
                .getEntriesByType('resource')
                .map((entry) => (entry as PerformanceResourceTiming).nextHopProtocol)
              return { ms: performance.now() - started, protocol: [...new Set(protocols)].join(',') }
            },
            [first ?? [], second ?? []],
          )
          result.ms.push(measured.ms)
          result.bytes = bytes
          result.protocol = measured.protocol
          await context.close()
        }
        results.set(`${page} ${http2 ? 'h2' : 'h1'}`, result)
      }
    } finally {
      await shaper.close()
      await edge.stop()
    }
  }
} finally {
  await browser.close()
}

console.log(
  `\nA page's code through the pilot's edge (TLS, gzip 5) on the tablet profile (10/5 Mbit/s shared, 40 ms RTT, CPU 4×), cold, ${RUNS} runs:`,
)
console.log('  page         files      KB   HTTP/1.1 p50 / p90      HTTP/2 p50 / p90   (protocol seen)')
for (const page of Object.keys(PAGES)) {
  const h1 = results.get(`${page} h1`)
  const h2 = results.get(`${page} h2`)
  if (!h1 || !h2) continue
  const figure = (r: Result) =>
    `${Math.round(percentile(r.ms, 50))} / ${Math.round(percentile(r.ms, 90))} ms`.padStart(16)
  console.log(
    `  ${page.padEnd(12)} ${String(h1.files).padStart(5)} ${(h1.bytes / 1024).toFixed(0).padStart(7)}   ${figure(h1)}   ${figure(h2)}   (${h1.protocol} · ${h2.protocol})`,
  )
}
