import { defineConfig } from 'vite'
import preact from '@preact/preset-vite'

/** The dashboard, built at install time into dist/ and served by the API at /dashboard/ (src/dashboard/serve.ts). */
export default defineConfig({
  root: import.meta.dirname,
  base: '/dashboard/',
  plugins: [preact()],
  build: { outDir: 'dist', emptyOutDir: true, assetsDir: 'assets', sourcemap: false, target: 'es2022' },
  logLevel: 'warn'
})
