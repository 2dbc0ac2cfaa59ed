import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import type { WorkerOptions } from '@temporalio/worker';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { ClientInterceptors } from '@temporalio/client';

/**
 * OpenTelemetry traces of the hub, sent over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT (or to
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, whole) when one is configured; off otherwise, at no cost. A gateway's span of
 * each request continues the trace of the participant's `traceparent`; Temporal's interceptors carry it into each
 * workflow the request starts or signals, and on to each activity and delivery, so an operator with Jaeger or
 * Grafana Tempo follows a payment across the gateway and worker processes.
 */
export interface Tracing {
  /** The worker's activity interceptors, and the sink its workflows' spans leave the sandbox by. */
  worker: Pick<WorkerOptions, 'interceptors' | 'sinks'>;
  /** The workflow interceptors, which a worker's workflow bundle must hold (bundled at start when tracing). */
  workflowInterceptorModules: string[];
  /** A Temporal client's: each workflow it starts, signals or updates carries the caller's span. */
  clientInterceptors: ClientInterceptors;
  /** Sends what is pending; the process's last act before it exits. */
  shutdown(): Promise<void>;
  /** Sends what is pending now (tests). */
  flush(): Promise<void>;
}

export function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): Tracing | undefined {
  const traces =
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || (env.OTEL_EXPORTER_OTLP_ENDPOINT && `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`);
  if (!traces) return undefined;
  const resource = new Resource({ 'service.name': env.OTEL_SERVICE_NAME || serviceName });
  const spanProcessor = new BatchSpanProcessor(new OTLPTraceExporter({ url: traces }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  // Global: the gateways' request spans and the interceptors use the API's tracer, and W3C trace context is the propagator.
  provider.register();
  return {
    worker: {
      interceptors: {
        activity: [(ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) })],
      },
      sinks: { exporter: makeWorkflowExporter(spanProcessor, resource) },
    },
    workflowInterceptorModules: [require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors')],
    clientInterceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] },
    shutdown: () => provider.shutdown(),
    flush: () => provider.forceFlush(),
  };
}
