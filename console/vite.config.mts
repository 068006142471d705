import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The staff console. The api process serves the build at /console (design.md §1); react-admin routes with
 * a hash, so the server needs no history fallback. In development `vite --config console/vite.config.mts`
 * proxies /api to a running api process.
 */
export default defineConfig({
  root: here,
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: resolve(here, '../dist/console'),
    emptyOutDir: true,
    // One internal single-page app, cached after the first load: one ~360 kB (gzip) bundle is acceptable.
    chunkSizeWarningLimit: 1500,
  },
  server: {
    port: 5174,
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } },
  },
});
