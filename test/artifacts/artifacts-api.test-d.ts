// Type tests of the artifact API (checked by `npm run typecheck`).
import { expectTypeOf } from 'vitest'
import type { Remote } from 'comlink'
import type { Artifact, ArtifactSlug, ArtifactStore, ArtifactVersionId, Memory, RemoteMemory } from '../../src/index.js'

// mem.artifacts is the same API in-process and through openMemory().
expectTypeOf<Memory['artifacts']>().toEqualTypeOf<ArtifactStore>()
expectTypeOf<RemoteMemory['artifacts']>().toEqualTypeOf<ArtifactStore>()

// Every method is async, so a comlink Remote of the store has the same call signatures.
type Methods = { [K in keyof ArtifactStore]: ArtifactStore[K] extends (...args: never[]) => Promise<unknown> ? true : false }
expectTypeOf<Methods[keyof Methods]>().toEqualTypeOf<true>()
expectTypeOf<Remote<ArtifactStore>['commit']>().parameters.toEqualTypeOf<Parameters<ArtifactStore['commit']>>()

// Slugs and version ids are branded: plain strings are not.
expectTypeOf<string>().not.toEqualTypeOf<ArtifactSlug>()
expectTypeOf<Artifact['versionId']>().toEqualTypeOf<ArtifactVersionId>()
expectTypeOf<ArtifactStore['create']>().returns.resolves.toEqualTypeOf<Artifact>()
