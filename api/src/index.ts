import { serve } from '@hono/node-server'
import { createApp } from './app.ts'
import { appConfigFromEnv, readEnv } from './env.ts'
import { createFirebase } from './lib/firebase.ts'

const env = readEnv()
const firebase = createFirebase({
  projectId: env.FIREBASE_PROJECT_ID,
  storageBucket: env.FIREBASE_STORAGE_BUCKET,
  useFirestoreEmulator: env.FIRESTORE_EMULATOR_HOST !== undefined,
})
const config = appConfigFromEnv(env)
const app = createApp({ firebase, config })

const server = serve({ fetch: app.fetch, hostname: env.API_HOST, port: env.API_PORT }, (info) => {
  const mode = env.FIREBASE_AUTH_EMULATOR_HOST
    ? `emulators, tokens=${env.ACCEPT_UNSIGNED_TOKENS === 'true' ? 'unsigned-accepted' : 'signed'}`
    : 'production Firebase'
  console.log(
    `api listening on http://${env.API_HOST}:${info.port}/api (project ${env.FIREBASE_PROJECT_ID}, ${mode}, passwords=${config.passwordPolicy})`,
  )
})

function shutdown(): void {
  server.close(() => {
    void firebase.close().finally(() => process.exit(0))
  })
  // Keep-alive connections can hold close() open; do not outlive the launcher's patience.
  setTimeout(() => process.exit(0), 3_000).unref()
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
