import { useCallback, useEffect, useRef, useState } from 'react'
import type { DictationAvailability, DictationEngine, DictationError, DictationSession } from './dictation.ts'

export type Dictation = {
  /** null while the engine is being asked. */
  availability: DictationAvailability | null
  isListening: boolean
  interim: string
  error: DictationError | null
  start: () => void
  stop: () => void
}

/** Runs one dictation at a time with an engine; final words go to onFinal. Stops when the component leaves. */
export function useDictation(engine: DictationEngine, onFinal: (words: string) => void): Dictation {
  const [availability, setAvailability] = useState<DictationAvailability | null>(null)
  const [isListening, setListening] = useState(false)
  const [interim, setInterim] = useState('')
  const [error, setError] = useState<DictationError | null>(null)
  const session = useRef<DictationSession | null>(null)
  const final = useRef(onFinal)
  final.current = onFinal

  useEffect(() => {
    let isCurrent = true
    void engine.availability().then((answer) => {
      if (isCurrent) setAvailability(answer)
    })
    return () => {
      isCurrent = false
    }
  }, [engine])

  useEffect(() => () => session.current?.stop(), [])

  const stop = useCallback(() => session.current?.stop(), [])
  const start = useCallback(() => {
    if (availability === null || availability.mode === 'unavailable' || session.current !== null) return
    setError(null)
    setListening(true)
    try {
      session.current = engine.start(availability.mode, {
        onInterim: setInterim,
        onFinal: (words) => final.current(words),
        onError: setError,
        onEnd: () => {
          session.current = null
          setListening(false)
          setInterim('')
        },
      })
    } catch {
      session.current = null
      setListening(false)
      setError('failed')
    }
  }, [availability, engine])

  return { availability, isListening, interim, error, start, stop }
}
