export { runCli } from './main.js'
export type { CliIO, Command } from './command.js'
