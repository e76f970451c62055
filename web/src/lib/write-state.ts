import { useSyncExternalStore } from 'react'
import { CHANGE_CUE_MS } from './use-change-cue.ts'

/**
 * What a document written here is waiting for (docs/decisions/0033-offline-writes.md): `queued` while
 * it is kept on the device and not yet acknowledged by the backend ("Gemmes, når der er
 * forbindelse"), then `saved` for CHANGE_CUE_MS once it has reached it ("Gemt"). Documents written
 * and acknowledged at once never show either: the toast said so.
 */
export type WriteState = 'queued' | 'saved'

const states = new Map<string, WriteState>()
const timers = new Map<string, ReturnType<typeof setTimeout>>()
const watchers = new Set<() => void>()

function set(path: string, state: WriteState | null): void {
  if ((states.get(path) ?? null) === state) return
  clearTimeout(timers.get(path))
  timers.delete(path)
  if (state === null) states.delete(path)
  else states.set(path, state)
  if (state === 'saved')
    timers.set(
      path,
      setTimeout(() => set(path, null), CHANGE_CUE_MS),
    )
  for (const watcher of watchers) watcher()
}

/** A write of `path` that the backend has not acknowledged in time (or offline): it waits on the device. */
export function markQueued(path: string): void {
  set(path, 'queued')
}

/** The backend acknowledged `path`: "Gemt" if it was shown as waiting, else nothing to say. */
export function markSaved(path: string): void {
  if (states.get(path) === 'queued') set(path, 'saved')
}

/** A queued write the backend refused: the SDK has taken it back, and the toast says so. */
export function markRefused(path: string): void {
  set(path, null)
}

/**
 * What a listener's snapshot says of a document: written here and not yet acknowledged
 * (`hasPendingWrites`), which counts as queued while the browser is offline; or acknowledged.
 */
export function heardDocument(path: string, hasPendingWrites: boolean, isOnline: boolean): void {
  if (!hasPendingWrites) markSaved(path)
  else if (!isOnline) markQueued(path)
}

/** Whether a write of this tab is known to wait for a connection. */
export const hasQueued = (): boolean => [...states.values()].includes('queued')

/** At sign-out: nothing of the session's writes is shown to the next user. */
export function forgetWriteStates(): void {
  for (const path of [...states.keys()]) set(path, null)
}

function subscribe(onChange: () => void): () => void {
  watchers.add(onChange)
  return () => watchers.delete(onChange)
}

/** The state of the document at `path` (persons/{id}/registrations/{id} …), or null. */
export function useWriteState(path: string): WriteState | null {
  return useSyncExternalStore(
    subscribe,
    () => states.get(path) ?? null,
    () => null,
  )
}
