import fs from 'node:fs/promises';
import path from 'node:path';
import Router from '@koa/router';
import { repoRoot } from '../../activities/shared/platform/config';
import { HttpError } from '../../activities/shared/platform/httpError';
import { needs } from '../admin/access/permissions';

/** What the console needs to know of this hub beyond the admin API: where each conversation opens in the Temporal UI. */
export interface ConsoleSettings {
  temporalUiUrl?: string;
  namespace: string;
  /** The hub's own participant (HUB_PARTICIPANT_NAME), which the console does not offer to deactivate. */
  hub: string;
}

/** The page and its stylesheet, as written; its scripts, as the project's build compiles them (api/console/web/tsconfig.json). */
const PAGES = path.join(repoRoot, 'api', 'console', 'web');
const SCRIPTS = path.join(repoRoot, 'dist', 'console', 'api', 'console', 'web');
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.css': 'text/css; charset=utf-8', '.js': 'text/javascript; charset=utf-8' };

/**
 * The charting library, uPlot, as its package ships it (an ES module and its stylesheet): served from the hub's own
 * dependencies under fixed names, never a CDN, and always the version package-lock.json installed.
 */
const UPLOT = path.join(repoRoot, 'node_modules', 'uplot', 'dist');
const LIBRARIES: Record<string, string> = { 'uPlot.js': path.join(UPLOT, 'uPlot.esm.js'), 'uPlot.css': path.join(UPLOT, 'uPlot.min.css') };

/** A file the console is made of: its name alone, so no path leaves the two folders. */
const ASSET = /^[a-z][a-zA-Z]*\.(?:css|js)$/;

/**
 * The operator's console at /console: a page of the hub's own (no CDN: everything it loads is served here) whose
 * scripts call the admin API with the operator's credential. The page and its files are served to anyone, as they
 * hold no data; every figure on it comes from the admin API, behind its authentication.
 */
export function consoleRoutes(settings: ConsoleSettings): Router {
  const router = new Router();
  const page = async (ctx: { type: string; body: unknown }) => {
    ctx.type = TYPES['.html'];
    ctx.body = await fs.readFile(path.join(PAGES, 'index.html'));
  };
  router.get('/console', needs('open'), page);
  router.get('/console/', needs('open'), page);
  router.get('/console/settings', needs('read'), (ctx) => {
    ctx.body = settings;
  });
  router.get('/console/:file', needs('open'), async (ctx) => {
    const { file } = ctx.params;
    if (!ASSET.test(file)) throw new HttpError(404, 'unknownUri', `no console file ${file.slice(0, 64)}`);
    const extension = path.extname(file);
    const where = Object.hasOwn(LIBRARIES, file) ? LIBRARIES[file] : path.join(extension === '.js' ? SCRIPTS : PAGES, file);
    const body = await fs.readFile(where).catch(() => undefined);
    if (!body) throw new HttpError(404, 'unknownUri', `no console file ${file}`);
    ctx.type = TYPES[extension];
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = body;
  });
  return router;
}
