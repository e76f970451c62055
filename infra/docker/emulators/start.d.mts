// Types of start.mjs for the TypeScript tests.
export type Mode = 'official' | 'lite'
export type Options = {
  mode: Mode
  projectId: string
  host: string
  ports: Record<'auth' | 'firestore' | 'firestoreWebSocket' | 'storage' | 'ui' | 'hub' | 'logging', number>
  dataDir: string
  workDir: string
  firebaseBin: string
  emulatorLiteCli: string
  rulesDir: string
  /** A pilot: emulator-lite refuses self sign-up on its public Auth listener (DISABLE_SIGN_UP=true). */
  disableSignUp: boolean
}
type Endpoint = { host: string; port: number }
export type FirebaseConfig = {
  emulators: {
    auth: Endpoint
    hub: Endpoint
    logging: Endpoint
    singleProjectMode: boolean
    firestore?: Endpoint & { websocketPort: number }
    storage?: Endpoint
    ui: { enabled: boolean; host?: string; port?: number }
  }
  firestore?: { rules: string }
  storage?: { rules: string }
}
export declare function readOptions(env: Record<string, string | undefined>, mode: Mode): Options
export declare function firebaseConfig(options: Options): FirebaseConfig
export declare function exportDir(options: Options): string
export declare function firebaseArgs(options: Options, hasExport: boolean): string[]
export declare function emulatorLiteArgs(options: Options, hasAuthExport?: boolean): string[]
export declare function run(options: Options): Promise<number>
