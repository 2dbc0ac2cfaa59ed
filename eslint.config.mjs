// Lint: typescript-eslint's recommended rules, plus the type-aware rules that catch a promise nobody awaits
// (a lost delivery or ledger step is a lost or doubled movement of money). Formatting is Prettier's.
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

// Workflow code runs in Temporal's sandbox: it takes the shared contracts and activities' types, never activities' code
// (nor the platform's, which reaches the network, the clock and the disk). Which way the rest of the import graph
// points, and that it has no cycle, dependency-cruiser checks (.dependency-cruiser.cjs), also in `npm run lint`.
const WORKFLOW_CODE = {
  regex: '^(\\.\\./)+activities(/(?!shared/contracts/)|$)',
  allowTypeImports: true,
  message: 'Workflows take the shared contracts and activities by their types (proxyActivities), never their code.',
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.interop/', '.temporal/', '.data/', 'temporal/*.mjs', 'eslint.config.mjs', '.dependency-cruiser.cjs'] },
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // A server's handler reads the object it is about to be given (`let dfsp; createServer(() => dfsp…)`).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // decimal.js's default precision (20 digits) rounds amounts of the full DECIMAL(38,4) range: money goes through the
      // exact Decimal of activities/shared/contracts/money.ts.
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'decimal.js', message: 'Use Decimal from activities/shared/contracts/money.ts: it is exact for every amount.' }] },
      ],
    },
  },
  {
    files: ['activities/shared/contracts/money.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  { files: ['workflows/**/*.ts'], rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [WORKFLOW_CODE] }] } },
  // A function is read whole, so it stays short (TigerBeetle's 70 lines, blank lines and comments counted): a longer one
  // is split into functions with one job each. Product code only: a test reads as the scenario it plays.
  {
    files: ['api/**/*.ts', 'activities/**/*.ts', 'workflows/**/*.ts', 'worker/**/*.ts', 'temporal/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 70 }] },
  },
  {
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  prettier,
);
