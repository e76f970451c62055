import { da } from '@bosted/domain/messages/da'

export const AVATAR_MAX_SIZE = 512
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024

export class AvatarFileError extends Error {
  constructor(readonly reason: 'not-image' | 'too-large') {
    super(reason)
    this.name = 'AvatarFileError'
  }
}

/** The size an image gets: its longest side at most `max`, never enlarged. */
export function fitWithin(width: number, height: number, max: number = AVATAR_MAX_SIZE) {
  const scale = Math.min(1, max / Math.max(width, height))
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) }
}

/** Checks an image's type and its size after resizing (storage.rules allow image/* up to 2 MiB). */
export function checkAvatar(file: Pick<Blob, 'type' | 'size'>, stage: 'chosen' | 'resized'): void {
  if (!file.type.startsWith('image/')) throw new AvatarFileError('not-image')
  if (stage === 'resized' && file.size > AVATAR_MAX_BYTES) throw new AvatarFileError('too-large')
}

/** Resized in the browser to at most 512 px (JPEG), so uploads stay small. */
export async function resizeImage(file: File): Promise<Blob> {
  checkAvatar(file, 'chosen')
  const bitmap = await createImageBitmap(file)
  const { width, height } = fitWithin(bitmap.width, bitmap.height)
  const canvas = document.createElement('canvas')
  canvas.width = width
  canvas.height = height
  const context = canvas.getContext('2d')
  if (context === null) throw new AvatarFileError('not-image')
  context.drawImage(bitmap, 0, 0, width, height)
  bitmap.close()
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.85))
  if (blob === null) throw new AvatarFileError('not-image')
  checkAvatar(blob, 'resized')
  return blob
}

/** The Danish text for a picture that cannot be used. */
export function avatarErrorText(failure: unknown): string {
  const reason = failure instanceof AvatarFileError ? failure.reason : 'not-image'
  return reason === 'too-large' ? da.personSettings.avatarTooLarge : da.personSettings.avatarNotImage
}
