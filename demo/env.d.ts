/// <reference types="vite/client" />
// Vite's client types: `?worker&url` imports (the memory worker, bundled as a module worker).
