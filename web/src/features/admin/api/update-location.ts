import type { LocationFeatures, Subscription } from '@bosted/domain/location'
import { da } from '@bosted/domain/messages/da'
import { locationPath, locationSharedFeaturesPath } from '@bosted/domain/paths'
import type { SubscriptionChange } from '@bosted/domain/subscription'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { ConcurrentEditError, isConcurrentEdit } from '../../../lib/concurrent-edit.ts'
import { firestoreLite, getDb } from '../../../lib/firestore.ts'
import { reportError } from '../../../lib/report-error.ts'
import { toastPromise } from '../../../lib/toast.ts'
import { adminKeys } from './keys.ts'

export type LocationUpdate =
  | { kind: 'general'; name: string }
  | { kind: 'logo'; logoUrl: string | null }
  | { kind: 'features'; features: LocationFeatures }
  | { kind: 'subscription'; subscription: Subscription; change: SubscriptionChange }

/** REQ-DATA-4's "updating a location": the caller wraps it in the location update toasts. */
export async function updateLocation(id: string, update: LocationUpdate): Promise<void> {
  const [db, { arrayUnion, doc, runTransaction, updateDoc, writeBatch }] = await Promise.all([getDb(), firestoreLite()])
  const reference = doc(db, locationPath(id))
  switch (update.kind) {
    case 'general':
      return updateDoc(reference, { name: update.name.trim() })
    case 'logo':
      return updateDoc(reference, { logoUrl: update.logoUrl })
    case 'features': {
      // The location's own setting and the copy its persons read, in one write.
      const batch = writeBatch(db)
      batch.update(reference, { 'settings.features': update.features })
      batch.set(doc(db, locationSharedFeaturesPath(id)), update.features)
      return batch.commit()
    }
    case 'subscription':
      // The new subscription and its line in the visible history, in one transaction that first
      // checks the stored subscription is still the one the editor changed (`change.from`): of two
      // admins saving at once, the second is refused (ConcurrentEditError) instead of overwriting
      // the first, and every history line's `from` is the previous line's `to`.
      return runTransaction(db, async (transaction) => {
        const snapshot = await transaction.get(reference)
        const stored = (snapshot.get('settings.subscription') ?? null) as Subscription | null
        const seen = update.change.from
        const unchanged =
          stored === null
            ? seen === null
            : seen !== null && stored.amount === seen.amount && stored.validUntil === seen.validUntil
        if (!snapshot.exists() || !unchanged) throw new ConcurrentEditError('the subscription')
        transaction.update(reference, {
          'settings.subscription': update.subscription,
          'settings.subscriptionHistory': arrayUnion(update.change),
        })
      })
  }
}

const UPDATE_TOASTS = {
  pending: da.admin.updatePending,
  resolved: da.admin.updateOk,
  // Another admin saved first: said plainly; the refresh then shows what is stored.
  rejected: (error: unknown) => (isConcurrentEdit(error) ? da.admin.subscriptionConflict : da.admin.updateFail),
}

/**
 * Saves a change to the location with REQ-MSG-6's toasts; the admin pages follow, then `onRefreshed`
 * runs (the header's switcher, logo and each page's features live outside this feature).
 */
export function useUpdateLocation(locationId: string, { onRefreshed }: { onRefreshed: () => unknown }) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (change: LocationUpdate) => toastPromise(updateLocation(locationId, change), UPDATE_TOASTS),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: adminKeys.all })
      await onRefreshed()
    },
    onError: reportError('a location could not be updated'),
  })
}
