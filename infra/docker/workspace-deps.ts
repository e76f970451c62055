// One workspace's production dependencies, copied out of a full install for its image.
//
//   node infra/docker/workspace-deps.ts <workspace> [<workspace> …] <target>
//
// `npm ci --workspace X` installs every workspace's dependencies (npm does not narrow a lock file to
// one workspace), so each service's image carried the others' too: the api's node_modules held
// firebase-tools, better-sqlite3 and re2, 682 MB where its own need 105 MB. npm's own resolution
// (`npm ls --omit=dev --all --parseable`) names the folders a workspace needs; each is copied
// without its nested node_modules (those that belong are named themselves). The workspaces' links
// (node_modules/@bosted/…) stay links: the image copies the workspaces' sources beside them.

import { execFileSync } from 'node:child_process'
import { cpSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The package folders (relative to `root`, below node_modules) that `npm ls --parseable` printed. */
export function packageFolders(parseable: string, root: string): string[] {
  const folders = new Set<string>()
  for (const line of parseable.split('\n')) {
    if (line.trim() === '') continue
    const folder = relative(root, line.trim()).split(sep).join('/')
    if (folder.startsWith('node_modules/')) folders.add(folder)
  }
  return [...folders].sort()
}

/** Whether `path`, met while copying `folder`, is that package's own node_modules (copied per package). */
export const isNestedModules = (folder: string, path: string): boolean =>
  path.split(sep).join('/') === `${folder}/node_modules`

/** Copies the production dependencies of `workspaces` (of the install at `root`) into `target`. */
export function copyWorkspaceDeps(root: string, workspaces: string[], target: string): string[] {
  const args = ['ls', '--omit=dev', '--all', '--parseable', ...workspaces.flatMap((name) => ['--workspace', name])]
  // npm ls fails on a tree that does not match the lock file: the build fails with it.
  const parseable = execFileSync('npm', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  const folders = packageFolders(parseable, root)
  for (const folder of folders) {
    cpSync(join(root, folder), join(target, folder), {
      recursive: true,
      verbatimSymlinks: true,
      filter: (source) => !isNestedModules(folder, relative(root, source)),
    })
  }
  return folders
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2)
  const target = args.pop()
  if (target === undefined || args.length === 0) {
    console.error('usage: node infra/docker/workspace-deps.ts <workspace> [<workspace> …] <target>')
    process.exit(2)
  }
  const folders = copyWorkspaceDeps(process.cwd(), args, target)
  console.log(`workspace-deps: ${folders.length} packages of ${args.join(', ')} into ${join(target, 'node_modules')}`)
}
