type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

/**
 * A creation draft kept across steps and a reload (sessionStorage: this tab only, gone when it
 * closes). The password is never stored: after a reload it is typed again.
 */
export function createDraftStore<T extends { password?: string }>(key: string, storage: () => StorageLike) {
  return {
    load(empty: T): T {
      try {
        const raw = JSON.parse(storage().getItem(key) ?? 'null') as Partial<T> | null
        if (typeof raw !== 'object' || raw === null) return empty
        const restored = { ...empty }
        for (const field of Object.keys(empty) as (keyof T)[]) {
          if (field === 'password') continue
          const value = raw[field]
          if (value !== undefined && typeof value === typeof empty[field]) restored[field] = value as T[keyof T]
        }
        return restored
      } catch {
        return empty
      }
    },
    save(values: T): void {
      const { password: _password, ...rest } = values
      try {
        storage().setItem(key, JSON.stringify(rest))
      } catch {
        // A full or blocked storage only loses the draft on reload.
      }
    },
    clear(): void {
      storage().removeItem(key)
    },
  }
}

export const personDraft = createDraftStore<import('./person-form.ts').PersonForm>(
  'bosted.draft.create-person',
  () => sessionStorage,
)
export const userDraft = createDraftStore<import('./user-form.ts').UserForm>(
  'bosted.draft.create-user',
  () => sessionStorage,
)
