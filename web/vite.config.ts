import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'

/**
 * `make dev` hands the stack's runtime configuration (its actual ports) to the dev server, which
 * serves it as /config.json in place of web/public/config.json (the default ports).
 */
function runtimeConfig(): Plugin {
  return {
    name: 'bosted-runtime-config',
    configureServer(server) {
      const config = process.env.WEB_RUNTIME_CONFIG
      if (!config) return
      server.middlewares.use('/config.json', (_req, res) => {
        res.setHeader('content-type', 'application/json')
        res.setHeader('cache-control', 'no-cache')
        res.end(config)
      })
    },
  }
}

export default defineConfig({
  plugins: [react(), runtimeConfig()],
  // The manifest lets web/bench/bundle-size.ts tell which chunks each route loads.
  build: { manifest: true },
  server: { proxy: { '/api': `http://127.0.0.1:${process.env.API_PORT ?? '3001'}` } },
})
