/** `promise`'s value, or `late` if it has not settled within `ms` (its timer cleared either way). */
export async function within<T, L>(promise: Promise<T>, ms: number, late: L): Promise<T | L> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<L>((resolve) => {
    timer = setTimeout(() => resolve(late), ms)
  })
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer))
}
