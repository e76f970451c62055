// Runs the fallback static server as its own process, so the launcher treats it like nginx.
import { startStaticServer } from './static-server.ts'

const options = JSON.parse(process.argv[2] ?? '{}')
const server = await startStaticServer(options)
console.log(`web ready http://${options.host}:${options.port}`)
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.close(() => process.exit(0)))
