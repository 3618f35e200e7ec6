// The MCP entry of memweave ('memweave/mcp', Node): an MCP server over a Memory. It needs the optional
// peer dependencies `@modelcontextprotocol/sdk` and `zod` (npm install @modelcontextprotocol/sdk zod).
export { createMcpServer } from './server.js'

export type { McpMemory, McpServerOptions } from './server.js'
