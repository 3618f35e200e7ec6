import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { allExamples, examplesOf, exampleModule, runAll, typecheck, type ExampleBlock, type ExampleContext } from './jsdoc-examples-helpers.js'

// Every `@example` block of the TSDoc in src/ is checked, as the README's blocks are (STYLE.md
// rules 16 and 18; issue 30): typechecked with the repository's compiler options, memweave's
// entries mapped to src/, and run in Node unless it needs what a Node test has not got (a
// browser, a model, a server at a fixed address), which CONTEXT says block by block. A block is
// a fragment: CONTEXT gives what it takes as given (a `mem`, a `pool`) and, after it, what must
// then hold. A new block without an entry here fails, so none goes unchecked.

const MEM = "const mem = await createMemory({ identity: await createIdentity() })"
const CLOSE = 'await mem.close()'
const CORE = { memweave: ['createMemory', 'createIdentity'] }
const POOL = `${MEM}\nconst pool = await mem.pools.create({ name: 'prefs' })`
const ARTIFACT = `${MEM}\nconst text = (await mem.artifacts.create('notes', { title: 'Notes', body: '# Notes\\n' })).text\nawait mem.close()`
const INTENT = 'small_version: "1.0.0"\\nowner: human\\nintent: Ship the importer\\nscope:\\n  include: []\\n  exclude: []\\nsuccess_criteria:\\n  - the importer runs\\n'

const REACT = 'it renders in a browser (React, a worker on IndexedDB); e2e/consumer-react.spec.ts runs the hooks in Chromium from the packed package'

const CONTEXT: Readonly<Record<string, ExampleContext>> = {
  'src/ai/memory-middleware.ts:memoryMiddleware': {
    check: 'types',
    why: 'it asks a hosted model (@ai-sdk/openai, not a dependency, and an API key); test/ai/ai-middleware.test.ts runs the middleware on a scripted model',
    imports: CORE,
    given: `${MEM}\nconst openai = (_id: string) => ({}) as Parameters<typeof import('ai').wrapLanguageModel>[0]['model']`,
  },
  'src/facts/store.ts:subscribeConflicts': {
    check: 'node',
    imports: CORE,
    given: `${MEM}\nconst render = (pairs: readonly unknown[]): void => void pairs`,
    then: `stop()\n${CLOSE}`,
  },
  'src/pools/store.ts:subscribe': {
    check: 'node',
    imports: CORE,
    given: `${POOL}\nconst render = (info: unknown, memories: readonly unknown[]): void => void [info, memories]`,
    then: `stop()\n${CLOSE}`,
  },
  'src/react/use-conflicts.ts:useConflicts': { check: 'types', jsx: true, why: REACT, imports: { memweave: ['type RemoteMemory'], 'memweave/react': ['useConflicts'] } },
  'src/react/use-memory.ts:useMemory': {
    check: 'types', jsx: true, why: REACT,
    imports: { memweave: ['type RemoteMemory', 'type Identity'], 'memweave/react': ['useMemory'] },
    given: 'const Preferences = (_props: { memory: RemoteMemory }) => null',
  },
  'src/react/use-pool.ts:usePool': { check: 'types', jsx: true, why: REACT, imports: { memweave: ['type RemoteMemory'], 'memweave/react': ['usePool'] } },
  'src/react/use-retrieve.ts:useRetrieve': { check: 'types', jsx: true, why: REACT, imports: { memweave: ['type RemoteMemory'], 'memweave/react': ['useRetrieve'] } },
  'src/react/use-sync-status.ts:useSyncStatus': { check: 'types', jsx: true, why: REACT, imports: { memweave: ['type RemoteMemory'], 'memweave/react': ['useSyncStatus'] } },
  'src/ai/conflict-judge.ts:llmConflictJudge': {
    check: 'types',
    why: 'it asks a hosted model (@ai-sdk/openai, not a dependency, and an API key); test/ai/ai-conflict-judge.test.ts runs the judge on a scripted model',
    imports: { memweave: ['createMemory'] },
    stubs: { '@ai-sdk/openai': "declare function openai(model: string): import('ai').LanguageModel" },
  },
  'src/ai/tools.ts:memoryTools': {
    check: 'types',
    why: 'it asks a language model; test/ai/ai-tools.test.ts runs the tools on a scripted model',
    imports: { ...CORE, 'memweave/ai': ['memoryTools'], ai: ['generateText', 'stepCountIs', 'type LanguageModel'] },
    given: `${MEM}\nconst model = {} as LanguageModel\nconst prompt = 'Where does Aria live?'`,
  },
  'src/artifacts/format.ts:parseArtifactFile': {
    check: 'node',
    imports: { ...CORE, memweave: [...CORE.memweave, 'parseArtifactFile'], 'node:fs/promises': ['readFile', 'writeFile', 'mkdir'] },
    given: `${ARTIFACT}\nawait mkdir('artifacts', { recursive: true })\nawait writeFile('artifacts/notes.md', text.replace('version: 1', 'version: 3'))`,
    then: '__assert(file.frontmatter.version === 3)',
  },
  'src/artifacts/format.ts:stringifyArtifact': { check: 'node', imports: { memweave: ['stringifyArtifact', 'parseArtifactFile'] }, then: "__assert(parseArtifactFile(file.text).frontmatter.version === 1 && file.text.endsWith('---\\n\\n# Notes\\n'))" },
  'src/artifacts/slug.ts:parseArtifactSlug': { check: 'node', imports: { memweave: ['parseArtifactSlug'] } },
  'src/artifacts/validate.ts:validateFrontmatter': {
    check: 'node',
    imports: { ...CORE, memweave: [...CORE.memweave, 'validateFrontmatter', 'parseArtifactFile'] },
    given: `${ARTIFACT}\nconst fm = parseArtifactFile(text).frontmatter`,
  },
  'src/artifacts/validate.ts:validateArtifactText': {
    check: 'node',
    imports: { ...CORE, memweave: [...CORE.memweave, 'validateArtifactText'] },
    given: ARTIFACT,
    then: '__assert(valid && problems.length === 0, JSON.stringify(problems))',
  },
  'src/cli/main.ts:runCli': {
    check: 'types',
    why: 'it is bin/memweave.js, with this process\'s arguments; test/cli/cli.test.ts runs the CLI',
    imports: { 'memweave/node': ['runCli'] },
  },
  'src/cli/static-server.ts:createStaticServer': {
    check: 'node',
    imports: { 'src/cli/static-server.js': ['createStaticServer'], 'node:fs/promises': ['mkdir'] },
    given: "await mkdir('demo/dist', { recursive: true })",
  },
  'src/client.ts:openMemory': {
    check: 'types',
    why: 'it starts a worker on IndexedDB (a browser); test/memory/client.browser.test.ts runs openMemory in Chromium',
    imports: { memweave: ['openMemory', 'createIdentity'] },
    given: 'const render = (hits: readonly unknown[]): void => void hits',
  },
  'src/conflict/nli.ts:nliConflictJudge': {
    check: 'types',
    why: 'it downloads a model (@huggingface/transformers is not a dependency); test/conflict/conflict-nli.test.ts runs the judge on a fake classifier',
    imports: { memweave: ['nliConflictJudge'] },
    stubs: { '@huggingface/transformers': "declare function pipeline(task: 'text-classification', model: string): Promise<Parameters<typeof nliConflictJudge>[0]>" },
  },
  'src/conflict/judge/text-detector.ts:TextConflictDetector': { check: 'node', imports: { memweave: ['TextConflictDetector'] } },
  'src/conformance/index.ts:runConformance': {
    check: 'node',
    imports: { memweave: ['createMemory', 'memoryStorage'], 'memweave/conformance': ['runConformance'] },
    then: '__assert(report.violations.length === 0, JSON.stringify(report.violations))',
  },
  'src/core/errors.ts:MemweaveError': {
    check: 'node',
    imports: { ...CORE, memweave: [...CORE.memweave, 'isMemweaveError'] },
    given: `${MEM}\nconst ref = await mem.facts.write('The draft is due Friday')`,
    then: CLOSE,
  },
  'src/core/identity.ts:createIdentity': { check: 'node', imports: CORE, then: "__assert(alice.did.startsWith('did:key:z6Mk'))" },
  'src/facts/store.ts:subscribe': {
    check: 'node',
    imports: CORE,
    given: `${MEM}\nconst render = (hits: readonly unknown[]): void => void hits`,
    then: `stop()\n${CLOSE}`,
  },
  'src/gmp-http/client.ts:GmpHttpClient': {
    check: 'types',
    why: 'it needs a GMP server at 127.0.0.1:7411; test/gmp-http/gmp-server.test.ts runs the client against one',
    imports: { 'memweave/node': ['GmpHttpClient'] },
    given: "const token = 'a-bearer-token'\nconst seed = new Uint8Array(32)",
  },
  'src/gmp-http/server.ts:createGmpServer': { check: 'node' },
  'src/mcp/server.ts:createMcpServer': {
    check: 'types',
    why: "it serves on this process's stdin and stdout; test/mcp/mcp-tools.test.ts runs the server",
    imports: { memweave: ['createMemory'], 'memweave/mcp': ['createMcpServer'], 'memweave/node': ['fileStorage'], '@modelcontextprotocol/sdk/server/stdio.js': ['StdioServerTransport'] },
    given: "const dir = './mcp-data'",
  },
  'src/memory.ts:export': {
    check: 'node',
    imports: { ...CORE, 'node:fs': ['createWriteStream'] },
    given: `${MEM}\nawait mem.facts.write('Aria lives in Rome')\nconst file = createWriteStream('backup.jsonl')`,
    then: `await new Promise((done) => file.end(done))\n${CLOSE}`,
  },
  'src/memory.ts:import': {
    check: 'node',
    imports: { ...CORE, 'node:fs': ['createReadStream'], 'node:fs/promises': ['writeFile'] },
    given: `const lines: string[] = []\n{\n  ${MEM}\n  await mem.facts.write('Aria lives in Rome')\n  for await (const line of mem.export()) lines.push(line)\n  ${CLOSE}\n}\nawait writeFile('backup.jsonl', lines.join(''))\n${MEM}`,
    then: `__assert(report.imported > 0, JSON.stringify(report))\n__assert((await mem.facts.audit()).length === 1)\n${CLOSE}`,
  },
  'src/memory.ts:createMemory': {
    check: 'node',
    imports: { memweave: ['createMemory'] },
    then: `__assert(hits[0]?.content === 'Aria lives in Rome')\n${CLOSE}`,
  },
  'src/node/file-adapter.ts:FileStorage': { check: 'node', imports: { memweave: ['createMemory'], 'memweave/node': ['fileStorage'] } },
  'src/node/file-adapter.ts:fileStorage': { check: 'node', then: CLOSE },
  'src/node/file-repair.ts:repairFileStorage': {
    check: 'node',
    imports: { memweave: ['createMemory'], 'memweave/node': ['fileStorage'] },
    given: "{\n  const mem = await createMemory({ storage: fileStorage({ dir: './data' }) })\n  await mem.facts.write('Aria lives in Rome')\n  await mem.close()\n}",
    then: '__assert(report.damage.length === 0)',
  },
  'src/node/request-guard.ts:requestGuard': {
    check: 'node',
    imports: { 'src/node/request-guard.js': ['requestGuard'], 'node:http': ['type IncomingMessage'] },
    given: "const req = { method: 'GET', url: '/v1/memories', headers: { host: '127.0.0.1:7411', origin: 'http://evil.example' } } as unknown as IncomingMessage",
    then: '__assert(refusal?.status === 403)',
  },
  'src/pools/store.ts:create': { check: 'node', imports: CORE, given: MEM, then: CLOSE },
  'src/pools/store.ts:share': { check: 'node', imports: CORE, given: `${POOL}\nconst specialist = await createIdentity()`, then: CLOSE },
  'src/pools/store.ts:write': { check: 'node', imports: CORE, given: POOL, then: CLOSE },
  'src/pools/store.ts:query': { check: 'node', imports: CORE, given: POOL, then: CLOSE },
  'src/pools/store.ts:forgotten': { check: 'node', imports: CORE, given: POOL, then: CLOSE },
  'src/pools/store.ts:conflicts': { check: 'node', imports: CORE, given: POOL, then: CLOSE },
  'src/pools/store.ts:conflictGroups': { check: 'node', imports: CORE, given: POOL, then: CLOSE },
  'src/relay/relay.ts:createRelay': { check: 'node' },
  'src/runtime/identity-store.ts:loadOrCreateIdentity': {
    check: 'types',
    why: 'it keeps the identity in IndexedDB (a browser); test/memory/client.browser.test.ts runs it in Chromium',
    imports: { memweave: ['loadOrCreateIdentity', 'openMemory'] },
  },
  'src/small/store-api.ts:SmallStore': {
    check: 'node',
    imports: CORE,
    given: `const agent = await createIdentity()\nconst person = await createIdentity()\nconst intentYaml = '${INTENT}'`,
    then: `__assert(handoff.replayId.value.length > 0)\n${CLOSE}`,
  },
  'src/sync/pool-token.ts:createPoolToken': {
    check: 'types',
    why: 'it connects to a relay at 127.0.0.1:7412; test/relay/relay-token.test.ts runs tokens against a relay',
    imports: { memweave: ['createIdentity', 'createPoolToken'], 'y-websocket': ['WebsocketProvider'], yjs: ['Doc'] },
    given: "const owner = await createIdentity()\nconst member = await createIdentity()\nconst pool = 'team-notes'\nconst doc = new Doc()",
  },
  'src/sync/pool-token.ts:verifyPoolToken': {
    check: 'node',
    imports: { memweave: ['createIdentity', 'createPoolToken', 'verifyPoolToken'] },
    given: "const owner = await createIdentity()\nconst ownerDid = owner.did\nconst pool = 'team-notes'\nconst token = await createPoolToken(owner, { pool, sub: (await createIdentity()).did, write: false, expiresAt: Date.now() + 60_000 })",
  },
  'src/sync/types.ts:connect': {
    check: 'types',
    why: 'it needs a relay at 127.0.0.1:4455; test/sync/sync-relay.test.ts runs sync through a relay',
    imports: CORE,
    given: `${POOL}\nconst token = 'a-pool-token'`,
  },
  'src/working/conflict/detector.ts:ConflictDetector': { check: 'node', imports: { memweave: ['ConflictDetector'] } },
  'src/working/handle.ts:addObservation': {
    check: 'node',
    imports: CORE,
    given: `${MEM}\nconst wm = await mem.working.open('launch')`,
    then: `__assert((await wm.get(obs.id))?.content === 'Meeting at 3pm')\n${CLOSE}`,
  },
  'src/working/handle.ts:getContextForAgent': {
    check: 'node',
    imports: { ...CORE, memweave: [...CORE.memweave, 'AgentRole'] },
    given: `${MEM}\nconst wm = await mem.working.open('launch')\nawait wm.addObservation({ content: 'Meeting at 3pm', sourceAgentId: 'a' })`,
    then: CLOSE,
  },
  'src/working/hash-embedder.ts:hashEmbedder': { check: 'node', imports: { memweave: ['hashEmbedder'] } },
  'src/working/pipeline-embedder.ts:pipelineEmbedder': {
    check: 'types',
    why: 'it downloads a model (@huggingface/transformers is not a dependency); test/working/working-embedders.test.ts runs it on a fake extractor',
    imports: { memweave: ['createMemory', 'pipelineEmbedder'] },
    stubs: { '@huggingface/transformers': "declare function pipeline(task: 'feature-extraction', model: string): Promise<Parameters<typeof pipelineEmbedder>[0]>" },
  },
}

const root = new URL('../..', import.meta.url).pathname
const dir = join(root, 'test', '.examples-tmp')
const blocks = allExamples(root)
const fileOf = (b: ExampleBlock): string => join(dir, `${b.key.replace(/^src\//, '').replace(/[^\w.-]+/g, '-')}-${b.line}.${CONTEXT[b.key]?.jsx ? 'tsx' : 'mts'}`)
let diagnostics = new Map<string, string[]>()
let runs = new Map<string, string | null>()
const cwd = mkdtempSync(join(tmpdir(), 'memweave-examples-'))

beforeAll(async () => {
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  const known = blocks.filter((b) => CONTEXT[b.key])
  for (const b of known) writeFileSync(fileOf(b), exampleModule(b, CONTEXT[b.key]!, dir, root))
  const running = runAll(known.filter((b) => CONTEXT[b.key]!.check === 'node').map(fileOf), root, cwd, 20_000)
  diagnostics = typecheck(known.map(fileOf), root)
  runs = await running
}, 240_000)

afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
  rmSync(cwd, { recursive: true, force: true })
})

test('src/ has the @example blocks, each with its context here and no context left over', () => {
  expect(blocks.length).toBeGreaterThanOrEqual(44)
  expect(blocks.filter((b) => !CONTEXT[b.key]).map((b) => `${b.file}:${b.line} (${b.key})`)).toEqual([])
  expect(Object.keys(CONTEXT).filter((k) => !blocks.some((b) => b.key === k))).toEqual([])
  expect(new Set(blocks.map((b) => b.key)).size).toBe(blocks.length)
})

describe.each(blocks.map((b) => [b.key, b] as const))('@example of %s', (_key, block) => {
  const context = CONTEXT[block.key]
  test(context?.check === 'node' ? 'typechecks and runs in Node' : `typechecks (not run: ${context?.why ?? 'no context'})`, () => {
    expect(context, `${block.file}:${block.line}: add the block's context to CONTEXT`).toBeDefined()
    expect(diagnostics.get(fileOf(block)), `${block.file}:${block.line}\n${block.code}`).toEqual([])
    if (context!.check === 'node') expect(runs.get(fileOf(block)), `${block.file}:${block.line}\n${block.code}`).toBeNull()
  })
})

describe('the checks catch a broken example (a test of the test)', () => {
  const broken = (code: string): ExampleBlock => examplesOf(`/**\n * @example\n${code.split('\n').map((l) => ` * ${l}`).join('\n')}\n */\nexport function broken(): void {}\n`, 'src/broken.ts')[0]!
  const files = {
    types: join(cwd, 'broken-types.mts'),
    throws: join(cwd, 'broken-throws.mts'),
    fine: join(cwd, 'fine.mts'),
  }

  test('the extractor reads the block and the symbol it documents', () => {
    const b = broken("const mem = await createMemory()\nawait mem.facts.write('x')")
    expect(b).toMatchObject({ key: 'src/broken.ts:broken', line: 2, code: "const mem = await createMemory()\nawait mem.facts.write('x')" })
  })

  test('a misspelt method fails the typecheck; a failing assertion and a thrown error fail the run', async () => {
    writeFileSync(files.types, exampleModule(broken("const mem = await createMemory()\nawait mem.facts.wrte('x')"), { check: 'node', imports: { memweave: ['createMemory'] } }, cwd, root))
    writeFileSync(files.throws, exampleModule(broken("await createMemory({ storage: 'file' })"), { check: 'node', imports: { memweave: ['createMemory'] } }, cwd, root))
    writeFileSync(files.fine, exampleModule(broken('const ok = 1 + 1'), { check: 'node', then: '__assert(ok === 3, "one and one")' }, cwd, root))
    const [checked, ran] = [typecheck([files.types], root), await runAll([files.throws, files.fine], root, cwd, 20_000)]
    expect(checked.get(files.types)!.join('\n')).toMatch(/wrte/)
    expect(ran.get(files.throws)).toMatch(/INVALID_ARGUMENT|storage/)
    expect(ran.get(files.fine)).toMatch(/one and one/)
  }, 240_000)
})
