import { startEmulatorLite } from '../src/index.ts'
import { startOfficialFirestore } from './official-emulator.ts'

const exprs = process.argv.slice(2)
const rules = `rules_version = '2';\nservice cloud.firestore {\n  match /databases/{database}/documents {\n${exprs.map((e, i) => `    match /c${i}/{id} { allow read: if ${e}; }`).join('\n')}\n  }\n}\n`
const official = await startOfficialFirestore()
const lite = await startEmulatorLite({ firestorePort: 0, storagePort: 0, authPort: 0, inMemory: true })
const project = 'demo-probe'
// Rules load through each one's privileged address (emulator-lite's admin listener).
for (const host of [official.host, `127.0.0.1:${lite.adminPort}`]) {
  const r = await fetch(`http://${host}/emulator/v1/projects/${project}:securityRules`, {
    method: 'PUT',
    headers: { authorization: 'Bearer owner' },
    body: JSON.stringify({ rules: { files: [{ name: 'firestore.rules', content: rules }] } }),
  })
  if (!r.ok) console.log('PUT', host, r.status, await r.text())
}
for (let i = 0; i < exprs.length; i++) {
  const out = []
  for (const host of [official.host, `127.0.0.1:${lite.firestorePort}`]) {
    const r = await fetch(`http://${host}/v1/projects/${project}/databases/(default)/documents/c${i}/x`)
    out.push(`${r.status} ${r.status === 403 ? (await r.text()).replace(/\s+/g, ' ').slice(0, 160) : ''}`)
  }
  console.log(exprs[i], '\n   official:', out[0], '\n   lite:    ', out[1])
}
await official.close()
await lite.close()
