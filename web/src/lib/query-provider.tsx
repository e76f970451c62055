import { QueryClientProvider } from '@tanstack/react-query'
import { type ReactNode, useEffect } from 'react'
import { queryClient } from './query-client.ts'

/**
 * The signed-in shell's one query cache (docs/decisions/0005-server-state.md). `onSessionEnd`
 * subscribes to the end of the session; then the cache is cleared, so no care data outlives it.
 */
export function QueryProvider({
  onSessionEnd,
  children,
}: {
  onSessionEnd: (clear: () => void) => () => void
  children: ReactNode
}) {
  useEffect(() => onSessionEnd(() => queryClient.clear()), [onSessionEnd])
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
}
