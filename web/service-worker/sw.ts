/// <reference lib="webworker" />
import {
  type Build,
  configuration,
  keepConfiguration,
  keptFile,
  page,
  precache,
  pruneBuilds,
  routeOf,
} from './shell.ts'

declare const self: ServiceWorkerGlobalScope
/** Written in by the build (web/vite-service-worker.ts): this build's version and files. */
declare const BOSTED_BUILD: Build
const build: Build = BOSTED_BUILD

/** Chromium's static routing (the install event's `addRoutes`): requests the browser answers without starting the worker. */
type RoutingInstallEvent = ExtendableEvent & {
  addRoutes?: (rules: { condition: { urlPattern: URLPattern }; source: 'cache' }[]) => Promise<void>
}

// A new build's worker takes over at once: every page keeps to its own build's files, which stay
// kept (KEEP_BUILDS), so nothing of two builds meets in one page.
self.addEventListener('install', (event: RoutingInstallEvent) => {
  // The build's files (hashed, never changed) straight from the kept caches, else the network: the
  // browser then needs no round trip through this worker's code per file. Where the browser has no
  // static routing, the fetch handler below answers them the same way.
  event
    .addRoutes?.([{ condition: { urlPattern: new URLPattern({ pathname: '/assets/*' }) }, source: 'cache' }])
    .catch(() => {})
  const online = (request: Request) => fetch(request)
  event.waitUntil(
    Promise.all([precache(caches, build), keepConfiguration(caches, online)]).then(() => self.skipWaiting()),
  )
})

self.addEventListener('activate', (event) => {
  event.waitUntil(pruneBuilds(caches, build).then(() => self.clients.claim()))
})

self.addEventListener('fetch', (event) => {
  const online = (request: Request) => fetch(request)
  switch (routeOf(event.request, self.location.origin, build)) {
    case 'page':
      return event.respondWith(page(caches, event.request, online))
    case 'config':
      return event.respondWith(configuration(caches, event.request, online))
    case 'file':
      return event.respondWith(keptFile(caches, event.request, online))
    default:
      return
  }
})
