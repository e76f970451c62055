/**
 * A save refused because someone else saved the same thing first: the document no longer holds
 * what the editor saw. Thrown inside a transaction (nothing is written); the page tells the
 * editor in Danish and shows the stored value.
 */
export class ConcurrentEditError extends Error {
  constructor(what: string) {
    super(`${what} was changed by someone else since it was read`)
    this.name = 'ConcurrentEditError'
  }
}

export const isConcurrentEdit = (error: unknown): boolean => (error as Error | null)?.name === 'ConcurrentEditError'
