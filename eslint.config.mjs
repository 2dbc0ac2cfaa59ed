// Lint: typescript-eslint's recommended rules, plus the type-aware rules that catch a promise nobody awaits
// (a lost delivery or ledger step is a lost or doubled movement of money). Formatting is Prettier's.
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

const WORKFLOW_CODE = {
  regex: '^(\\.\\./)+activities(/|$)',
  allowTypeImports: true,
  message: 'Workflows take activities by their types (proxyActivities), never their code.',
};
const CONNECTOR_CODE = {
  regex: '(^|/)(activities|workflows)/hub(/|$)|^(\\.\\./)+hub/',
  message: "A connector shares the contracts (api/contracts) with the hub, never the hub's internals.",
};
// From activities/hub/ledger/: a sibling hub folder other than db, an activities folder other than platform, or
// anything of the project's top level but api/contracts.
const LEDGER_LEAF = {
  regex: '^\\.\\./(?!db/|\\.\\./)|^\\.\\./\\.\\./(?!platform/|\\.\\./)|^\\.\\./\\.\\./\\.\\./(?!api/contracts/)',
  message:
    'The ledger is a leaf: it takes its store (activities/hub/db), the contracts and the platform, and is handed the rest (SettlementTerms, LedgerFollowers).',
};
const importDirection = (files, patterns) => [{ files, rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] } }];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.interop/', '.temporal/', '.data/', 'temporal/*.mjs', 'eslint.config.mjs'] },
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
      // exact Decimal of api/contracts/money.ts.
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'decimal.js', message: 'Use Decimal from api/contracts/money.ts: it is exact for every amount.' }] },
      ],
    },
  },
  {
    files: ['api/contracts/money.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  // The direction of imports. Workflow code runs in Temporal's sandbox: it takes activities' types, never their code.
  // A participant's connector is its own program: it shares the contracts (api/contracts) with the hub, never the hub's
  // internals. (One rule per file, so each group of files gets the restrictions that apply to it.)
  ...importDirection(['workflows/hub/**/*.ts', 'workflows/kit/**/*.ts', 'workflows/*.ts'], [WORKFLOW_CODE]),
  ...importDirection(['workflows/dfsp/**/*.ts', 'workflows/pisp/**/*.ts', 'workflows/participant/**/*.ts'], [WORKFLOW_CODE, CONNECTOR_CODE]),
  ...importDirection(
    ['activities/dfsp/**/*.ts', 'activities/pisp/**/*.ts', 'activities/connector/**/*.ts', 'api/dfsp/**/*.ts', 'api/pisp/**/*.ts', 'api/connector/**/*.ts'],
    [CONNECTOR_CODE],
  ),
  // The ledger is handed what it needs and returns what it decided: it never calls settlement, notifications or workflows.
  ...importDirection(['activities/hub/ledger/**/*.ts'], [LEDGER_LEAF]),
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
