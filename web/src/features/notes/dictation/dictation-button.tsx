import { da } from '@bosted/domain/messages/da'
import { useState } from 'react'
import { Dialog } from '../../../components/ui/dialog.tsx'
import type { DictationError } from './dictation.ts'
import type { Dictation } from './use-dictation.ts'

const ERRORS: Record<DictationError, string> = {
  permission: da.dictation.permission,
  'no-microphone': da.dictation.noMicrophone,
  'no-speech': da.dictation.noSpeech,
  network: da.dictation.network,
  language: da.dictation.language,
  failed: da.dictation.failed,
}

const UNAVAILABLE = {
  unsupported: da.dictation.unsupported,
  'cloud-not-allowed': da.dictation.notAllowedHere,
  'turned-off': da.dictation.turnedOff,
} as const

/** Where the one-time notice about cloud dictation was accepted (per location, on this device). */
export const cloudNoticeKey = (locationId: string) => `bosted.dictationCloudNotice.${locationId}`

type Props = { dictation: Dictation; locationId: string; hintId: string }

/**
 * The editor's microphone: start and stop, what is heard while speaking, every failure in Danish, and
 * before the first cloud dictation at a location a notice saying where the audio goes.
 */
export function DictationButton({ dictation, locationId, hintId }: Props) {
  const [isAsking, setAsking] = useState(false)
  const { availability, isListening, interim, error } = dictation
  if (availability === null) return null

  if (availability.mode === 'unavailable') {
    return (
      <p id={hintId} className="dictation__hint muted">
        {UNAVAILABLE[availability.reason]}
      </p>
    )
  }

  const begin = () => {
    if (availability.mode === 'cloud' && localStorage.getItem(cloudNoticeKey(locationId)) === null) {
      setAsking(true)
      return
    }
    dictation.start()
  }
  return (
    <div className="dictation">
      <button
        type="button"
        className={`button ${isListening ? 'button--danger' : 'button--secondary'} dictation__button`}
        aria-pressed={isListening}
        aria-describedby={hintId}
        onClick={isListening ? dictation.stop : begin}
      >
        <span aria-hidden="true">🎤 </span>
        {isListening ? da.dictation.stop : da.dictation.start}
      </button>
      <p id={hintId} className="dictation__hint muted">
        {availability.mode === 'on-device' ? da.dictation.onDevice : da.dictation.cloudTitle}
      </p>
      <div className="dictation__live" aria-live="polite">
        {isListening && <p className="dictation__listening">{da.dictation.listening}</p>}
        {interim !== '' && <p className="dictation__interim">{interim}</p>}
      </div>
      {error !== null && (
        <p className="field__error" role="alert">
          {ERRORS[error]}
        </p>
      )}
      <Dialog title={da.dictation.cloudTitle} isOpen={isAsking} onClose={() => setAsking(false)}>
        <p>{da.dictation.cloudNotice}</p>
        <div className="dialog__actions">
          <button type="button" className="button button--secondary" onClick={() => setAsking(false)}>
            {da.dictation.cloudCancel}
          </button>
          <button
            type="button"
            className="button button--primary"
            onClick={() => {
              localStorage.setItem(cloudNoticeKey(locationId), new Date().toISOString())
              setAsking(false)
              dictation.start()
            }}
          >
            {da.dictation.cloudContinue}
          </button>
        </div>
      </Dialog>
    </div>
  )
}
