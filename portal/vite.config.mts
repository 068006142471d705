import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..');

/**
 * The BA-facing portal. The api process serves the build at / with a history fallback to index.html,
 * because the portal routes with real paths (/onboard/status). In development
 * `vite --config portal/vite.config.mts` proxies /api to a running api process.
 */
export default defineConfig({
  root: here,
  base: '/',
  plugins: [react()],
  build: {
    outDir: resolve(repoRoot, 'dist/portal'),
    emptyOutDir: true,
    sourcemap: true,
    // Libraries change less often than the portal: separate chunks stay cached across releases.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // The lane grid's library, only in the lazily loaded RFP view.
            { name: 'ag-grid', test: /node_modules[\\/]ag-grid-/, priority: 3 },
            { name: 'mui', test: /node_modules[\\/](@mui|@emotion)[\\/]/, priority: 2 },
            { name: 'vendor', test: /node_modules[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    // The forms import the domain's zod schemas from ../domain, outside this root.
    fs: { allow: [repoRoot] },
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } },
  },
});
