// The Node entry of memweave ('memweave/node'): the HTTP server, its client, file storage, the relay
// (needs the optional peer `ws`) and the CLI. The MCP server is 'memweave/mcp' (needs the optional
// peers `@modelcontextprotocol/sdk` and `zod`). Everything else is imported from 'memweave'.
// This folder is the Node wing of the modules: file storage (file-*.ts, recording-tx.ts) and the
// artifact and SMALL workspace directories; nothing the browser entry reaches imports it.
export { createGmpServer, GmpHttpClient } from '../gmp-http/index.js'
export { fileStorage, FileStorage } from './file-adapter.js'
export { repairFileStorage } from './file-repair.js'
export { runCli } from '../cli/index.js'
export { ArtifactWorkspace } from './artifact-workspace.js'
export { importWorkspace, exportWorkspace } from './artifact-workspace-sync.js'
export { createRelay, createPoolToken, verifyPoolToken, TokenFailure, RelayCloseCode, READ_ONLY_REFUSAL, DEFAULT_LIMITS } from '../relay/index.js'
export { readWorkspace, validateDir, writeDocument, appendProgressEntry, regenerateHandoff, initWorkspace } from './small-workspace-dir.js'

export type {
  CreateStoreOptions, GmpHttpClientOptions, GmpServer, GmpServerAddress, GmpServerOptions, GmpWireStore, WireErrorBody,
  WireConflict, WireMemory, WireRetrieveOptions, WireSource, WireStoreInfo, WireWriteOptions,
} from '../gmp-http/index.js'
export type { FileStorageOptions } from './file-adapter.js'
export type { DroppedRow, RepairOptions, RepairReport } from './file-repair.js'
export type { Damage } from './file-load.js'
export type { CliIO, Command } from '../cli/index.js'
export type { ArtifactWorkspaceOptions, SkippedFile, WorkspaceArtifact } from './artifact-workspace.js'
export type { ExportReport, ImportReport, TransferProblem } from './artifact-workspace-sync.js'
export type { Relay, RelayAddress, RelayOptions, RelayLimits, PoolGrant, PoolTokenOptions, PoolTokenPayload, VerifyPoolTokenOptions } from '../relay/index.js'
export type { LoadedWorkspace, DirValidateOptions, DirWriteOptions, DirWriteResult, AppendOptions, InitOptions } from './small-workspace-dir.js'
