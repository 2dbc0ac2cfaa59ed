// The direction of imports, checked by `npm run lint` (dependency-cruiser). The layers read top-down, and nothing
// imports upward:
//   worker/ (processes: wires everything)  →  temporal/ (installs and runs the Temporal server)
//   → api/ (gateways) and workflows/ (conversations)  →  activities/ (side effects)
//   → activities/shared/ (the ground floor: contracts and platform, which every layer stands on).
// ESLint's import rules (eslint.config.mjs) say what a workflow or a connector may take; this file says which way the
// whole graph points, and that it has no cycle.
const SHARED = '^activities/shared/';
const ACTIVITIES = '^activities/(?!shared/)';
const HUB = '^(activities|workflows)/hub/|^api/(fspiop|admin|settlement|thirdparty|console)/';
const CONNECTORS = '^(activities|workflows|api)/(dfsp|pisp|connector|participant)/';

const forbid = (name, comment, from, to) => ({ name, comment, severity: 'error', from: { path: from }, to: { path: to } });

module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'A cycle makes two modules one: neither can be read, tested or moved without the other.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    forbid(
      'shared-stands-alone',
      'The ground floor (contracts, platform) is imported by every layer, so it imports none of them.',
      SHARED,
      `^(api|workflows|worker|temporal)/|${ACTIVITIES}`,
    ),
    forbid(
      'activities-act-for-others',
      'Activities are called by workflows and gateways; they never import them, nor the processes that wire them.',
      ACTIVITIES,
      '^(api|workflows|worker|temporal)/',
    ),
    forbid(
      'drivers-are-wired-not-wiring',
      'Gateways and workflows are started by worker/; they never import a process or the Temporal installer.',
      '^(api|workflows)/',
      '^(worker|temporal)/',
    ),
    forbid('workflows-know-no-gateway', 'Workflow code runs in the sandbox: an HTTP gateway has no place in its bundle.', '^workflows/', '^api/'),
    forbid(
      'temporal-installs-only',
      'The Temporal installer stands on the ground floor alone: the hub runs on it, not the other way round.',
      '^temporal/',
      `^(worker|api|workflows)/|${ACTIVITIES}`,
    ),
    forbid(
      'ledger-is-a-leaf',
      'The ledger is handed what it needs and returns what it decided: it imports its store and the ground floor only.',
      '^activities/hub/ledger/',
      '^activities/hub/(?!ledger/|db/)',
    ),
    forbid(
      'connectors-share-only-the-ground-floor',
      "A participant's connector is its own program: it shares contracts and schemas with the hub, never the hub's code.",
      CONNECTORS,
      HUB,
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules|test)/|^api/console/web/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
