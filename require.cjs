// memweave is an ES module package: `require('memweave')` lands here instead of failing obscurely.
throw Object.assign(
  new Error(
    'memweave is ESM-only (Node >= 20): use `import { createMemory } from \'memweave\'` or `await import(\'memweave\')`; ' +
      'in a CommonJS TypeScript project set "module": "node16" or "nodenext".',
  ),
  { code: 'ERR_REQUIRE_ESM' },
)
