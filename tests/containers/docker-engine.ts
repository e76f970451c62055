import { getContainerRuntimeClient } from 'testcontainers'

export type DockerEngine = { available: true; host: string } | { available: false; reason: string }

declare module 'vitest' {
  export interface ProvidedContext {
    dockerEngine: DockerEngine
  }
}

/** Asks testcontainers for a Docker engine (DOCKER_HOST, ~/.testcontainers.properties, the socket …). */
export async function probeDockerEngine(): Promise<DockerEngine> {
  try {
    const client = await getContainerRuntimeClient()
    return { available: true, host: client.info.containerRuntime.host }
  } catch (error) {
    return { available: false, reason: error instanceof Error ? error.message : String(error) }
  }
}
