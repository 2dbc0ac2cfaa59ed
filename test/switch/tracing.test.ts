import crypto from 'node:crypto';
import type http from 'node:http';
import test from 'ava';
import { startTracing, type Tracing } from '../../activities/shared/platform/tracing';
import { serveLocally } from '../helpers/http';
import { QuotedPayments } from '../helpers/quotedPayments';
import { startSwitch, SwitchHarness } from '../helpers/switchHarness';

// OpenTelemetry traces of a payment, sent over OTLP/HTTP to a receiver this test runs (a real HTTP endpoint that keeps
// what the hub's exporter posts), as Jaeger or Grafana Tempo would receive them.

interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, unknown>;
}

const received: ReceivedSpan[] = [];
let receiver: http.Server;
let tracing: Tracing;
let hub: SwitchHarness;
let payments: QuotedPayments;

test.before(async () => {
  const started = await serveLocally((request, body, response) => {
    if (request.url === '/v1/traces') {
      const export_ = JSON.parse(body.toString('utf-8')) as {
        resourceSpans: Array<{
          scopeSpans: Array<{ spans: Array<Omit<ReceivedSpan, 'attributes'> & { attributes: Array<{ key: string; value: Record<string, unknown> }> }> }>;
        }>;
      };
      for (const span of export_.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans)))
        received.push({ ...span, attributes: Object.fromEntries(span.attributes.map(({ key, value }) => [key, Object.values(value)[0]])) });
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  receiver = started.server;
  tracing = startTracing('hub-test', { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${started.port}` })!;
  hub = await startSwitch({ tracing });
  payments = new QuotedPayments(hub);
});
test.after.always(async () => {
  await hub?.close();
  await tracing?.shutdown();
  receiver?.close();
});

/** The spans of trace `traceId` once they hold every name in `names` (they arrive in batches). */
async function spansOf(traceId: string, names: string[]): Promise<ReceivedSpan[]> {
  for (let attempt = 0; ; attempt++) {
    await tracing.flush();
    const spans = received.filter((span) => span.traceId === traceId);
    if (names.every((name) => spans.some((span) => span.name === name)) || attempt >= 50) return spans;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test("a payment's spans continue the payer's trace: the gateway's request, the workflows it starts and signals, their activities and deliveries", async (t) => {
  const [payer, payee] = [await hub.provision(), await hub.provision()];
  payments.quotes(payee);
  const traceId = crypto.randomBytes(16).toString('hex');
  const { transferId, state } = await payments.pay(payer, payee, '9', traceId);
  t.is(state, 'COMMITTED');
  const expected = ['POST /transfers', 'POST /quotes', 'StartWorkflow:transfer', 'RunWorkflow:transfer', 'RunActivity:deliver', 'RunActivity:prepareTransfer'];
  const spans = await spansOf(traceId, expected);
  for (const name of expected)
    t.true(
      spans.some((span) => span.name === name),
      `${name} is in the payer's trace`,
    );
  const request = spans.find((span) => span.name === 'POST /transfers')!;
  t.like(request.attributes, { 'hub.gateway': 'switch', 'http.response.status_code': 202, 'fspiop.source': payer.name, 'fspiop.destination': payee.name });
  const run = spans.find((span) => span.name === 'RunWorkflow:transfer')!;
  const start = spans.find((span) => span.name === 'StartWorkflow:transfer')!;
  t.is(start.parentSpanId, request.spanId, "the workflow's start is a child of the gateway's request");
  t.is(run.parentSpanId, start.spanId, 'and the run of its start');
  t.true(
    spans.some((span) => span.name === 'RunActivity:deliver' && span.parentSpanId !== undefined && spans.some((parent) => parent.spanId === span.parentSpanId)),
    'each delivery within the trace',
  );
  t.truthy(transferId);
});
