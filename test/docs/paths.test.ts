import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { repoRoot } from '../../activities/shared/platform/config';

// The README and the reference pages send a newcomer to files: every file or folder they name must be there.

const TOP_LEVEL = ['api', 'activities', 'workflows', 'worker', 'temporal', 'test', 'docs', '.ci'];
const PAGES = [
  'README.md',
  ...fs
    .readdirSync(path.join(repoRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** A code span that names a path in this repository: under a top-level folder, with no placeholder or wildcard in it. */
function namedPath(span: string): string | undefined {
  const candidate = span.replace(/:\d+$/, '').replace(/[),.;]+$/, '');
  if (!TOP_LEVEL.some((folder) => candidate.startsWith(`${folder}/`))) return undefined;
  if (/[\s<>{}*…$|]|\.\.\./.test(candidate)) return undefined;
  return candidate;
}

/** Where a page's links and code spans point, each as a path from the repository's root. */
function pathsNamedIn(page: string): string[] {
  const text = fs.readFileSync(path.join(repoRoot, page), 'utf-8');
  const spans = [...text.matchAll(/`([^`\n]+)`/g)].flatMap(([, span]) =>
    span
      .split(/,\s*|\s+/)
      .map(namedPath)
      .filter((p): p is string => !!p),
  );
  const links = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
    .map(([, target]) => target)
    .filter((target) => !/^[a-z]+:/.test(target))
    .map((target) => path.relative(repoRoot, path.resolve(repoRoot, path.dirname(page), target)));
  return [...new Set([...spans, ...links])];
}

for (const page of PAGES) {
  test(`every file and folder ${page} names exists`, (t) => {
    const named = pathsNamedIn(page);
    const missing = named.filter((named) => !fs.existsSync(path.join(repoRoot, named)));
    if (page === 'README.md') t.true(named.length > 40, `the README's layout and links name ${named.length} paths`);
    t.deepEqual(missing, [], `${page} names ${named.length} paths`);
  });
}
