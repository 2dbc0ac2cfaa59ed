import type http from 'node:http';
import { jsonOrUndefined, serveLocally } from '../helpers/http';

/** A backend's answer to one request: its status and JSON body. */
export interface BackendAnswer {
  status: number;
  body?: unknown;
}

/**
 * A participant's own system behind a Mojaloop SDK, which the suite stands in for: a JSON server on a free loopback
 * port that records every request for the checks and answers each as the subclass says.
 */
export abstract class RecordingBackend {
  readonly received: Array<{ method: string; path: string; body: any }> = [];
  port = 0;
  private server?: http.Server;

  protected abstract answer(method: string, path: string, body: any): BackendAnswer | Promise<BackendAnswer>;

  /** Starts serving; answers itself. */
  async listen(): Promise<this> {
    const { server, port } = await serveLocally((request, bytes, response) => {
      const body = jsonOrUndefined(bytes.toString('utf-8'));
      this.received.push({ method: request.method!, path: request.url!, body });
      void Promise.resolve(this.answer(request.method!, request.url!, body)).then(({ status, body: answer }) => {
        response.writeHead(status, { 'content-type': 'application/json' }).end(answer === undefined ? undefined : JSON.stringify(answer));
      });
    });
    this.server = server;
    this.port = port;
    return this;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
