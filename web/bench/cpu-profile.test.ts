import { expect, test } from 'vitest'
import { type CpuProfile, selfTimeByScript } from './cpu-profile.ts'

const frame = (functionName: string, url = '') => ({ functionName, url })

test("a profile's self time is summed by script file, browser work and API, largest first", () => {
  const profile: CpuProfile = {
    nodes: [
      { id: 1, callFrame: frame('(root)') },
      { id: 2, callFrame: frame('(program)') },
      { id: 3, callFrame: frame('render', 'http://127.0.0.1:4173/assets/app-VFQq3WCG.js') },
      { id: 4, callFrame: frame('', 'http://127.0.0.1:4173/assets/app-VFQq3WCG.js') },
      { id: 5, callFrame: frame('fetch') },
      { id: 6, callFrame: frame('') },
    ],
    // Each sample lasts until the next one: 2, 3, 1, 4 and 5 ms; the last has no next one (0 ms).
    samples: [2, 3, 4, 5, 6, 3],
    timeDeltas: [0, 2000, 3000, 1000, 4000, 5000],
  }
  expect(selfTimeByScript(profile)).toEqual([
    ['(anonymous)', 5],
    ['app-VFQq3WCG.js', 4],
    ['fetch', 4],
    ['(program)', 2],
  ])
})
