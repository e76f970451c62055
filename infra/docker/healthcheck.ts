// Container healthcheck for our Node images: `node healthcheck.ts URL…` exits 0 when every URL
// answers with an HTTP status below 500 within 3 s (the api's /api/health answers 503 while a
// dependency is down; an emulator's root answers as soon as it serves), else 1 naming the first
// that did not.
const urls = process.argv.slice(2)
if (urls.length === 0) {
  console.error('usage: node healthcheck.ts URL…')
  process.exit(2)
}
for (const url of urls) {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(3000) })
    await response.arrayBuffer()
    if (response.status >= 500) {
      console.error(`${url} answered ${response.status}`)
      process.exit(1)
    }
  } catch (error) {
    console.error(`${url} did not answer: ${error instanceof Error ? error.message : String(error)}`)
    process.exit(1)
  }
}
