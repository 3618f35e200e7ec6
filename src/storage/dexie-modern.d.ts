// Dexie's ES2018 build ships without its own declarations: they are the package's.
declare module 'dexie/dist/modern/dexie.mjs' {
  export { Dexie } from 'dexie'
}
