// The summary of a V8 CPU profile (.cpuprofile, as `node --cpu-prof` writes it): where a process spent its time.

import fs from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where the code of a frame lives, short: a package name, a file of this repo, or V8's own (GC, idle, native). */
function placeOf(url: string): string {
  if (!url) return '(native)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return url;
  const dist = url.indexOf('/dist/');
  return dist >= 0 ? url.slice(dist + '/dist/'.length) : path.basename(url);
}

/** The share of samples spent in each place (self time, not counting callees), largest first. */
export function profileSummary(file: string, top = 12): string[] {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const byPlace = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const node = nodes.get(id);
    if (!node) return;
    const delta = profile.timeDeltas[index] ?? 0;
    const name = node.callFrame.functionName;
    const place = name === '(idle)' || name === '(garbage collector)' || name === '(program)' ? name : placeOf(node.callFrame.url);
    byPlace.set(place, (byPlace.get(place) ?? 0) + delta);
    total += delta;
  });
  const busy = total - (byPlace.get('(idle)') ?? 0);
  return [...byPlace]
    .filter(([place]) => place !== '(idle)')
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([place, us]) => `${((100 * us) / Math.max(1, busy)).toFixed(1).padStart(6)}%  ${place}`);
}
