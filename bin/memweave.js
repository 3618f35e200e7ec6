#!/usr/bin/env node
// The memweave command. Its code is the build in dist/ (npm run build).
const { runCli } = await import('../dist/src/cli/main.js').catch((err) => {
  if (err?.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/src/cli/main.js')) {
    process.stderr.write('memweave: dist/ is missing; run "npm run build" first\n')
    process.exit(1)
  }
  throw err
})

process.exitCode = await runCli(process.argv.slice(2))
