/**
 * servebench's errors are one family: every error class under src/ extends `ServebenchError`
 * (directly or through another member), is exported, and carries its own stable code; nothing
 * tells errors apart by their `name` text.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { ServebenchError } from '../src/core/errors.js';
import { REPO_ROOT } from './helpers/cli.js';

interface ClassDeclaration {
  file: string;
  name: string;
  base: string;
  exported: boolean;
}

function sourceFiles(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...sourceFiles(path));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) found.push(path);
  }
  return found;
}

const FILES = sourceFiles(join(REPO_ROOT, 'src'));

const DECLARATIONS: ClassDeclaration[] = FILES.flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(/^(export )?(?:abstract )?class (\w+) extends (\w+)/gm)].map((match) => ({
    file: relative(REPO_ROOT, file),
    name: match[2]!,
    base: match[3]!,
    exported: match[1] !== undefined,
  })),
);

/** Classes whose chain of `extends` reaches `Error`. */
function errorClasses(): ClassDeclaration[] {
  const names = new Set(['Error']);
  const found: ClassDeclaration[] = [];
  for (let grew = true; grew; ) {
    grew = false;
    for (const declaration of DECLARATIONS) {
      if (names.has(declaration.base) && !names.has(declaration.name)) {
        names.add(declaration.name);
        found.push(declaration);
        grew = true;
      }
    }
  }
  return found;
}

test('ServebenchError is the only class that extends Error directly', () => {
  const direct = errorClasses().filter((c) => c.base === 'Error').map((c) => `${c.file}: ${c.name}`);
  assert.deepEqual(direct, ['src/core/errors.ts: ServebenchError']);
});

/** Constructor arguments of the classes that take more than a message. */
const CONSTRUCTOR_ARGS: Record<string, unknown[]> = {
  ModelDiscoveryError: [['no model']],
  RunInterrupted: ['SIGINT'],
};

test('every error class is exported, extends ServebenchError and has a code of its own', async () => {
  const members = errorClasses().filter((c) => c.name !== 'ServebenchError');
  assert.ok(members.length >= 12, `found ${members.length} error classes`);
  assert.deepEqual(members.filter((c) => !c.exported).map((c) => `${c.file}: ${c.name}`), [], 'unexported error classes');
  const codes = new Map<string, string>();
  for (const { file, name } of members) {
    const module = (await import(pathToFileURL(join(REPO_ROOT, file)).href)) as Record<string, new (...args: unknown[]) => unknown>;
    const instance = new module[name]!(...(CONSTRUCTOR_ARGS[name] ?? ['a', 'b']));
    assert.ok(instance instanceof ServebenchError, `${name} extends ServebenchError`);
    const { code } = instance;
    assert.match(code, /^E_[A-Z_]+$/, `${name}'s code`);
    assert.equal(codes.get(code), undefined, `${name} and ${codes.get(code)} share ${code}`);
    codes.set(code, name);
    assert.equal(instance.name, name, `${name} names itself`);
  }
});

test('no source tells errors apart by their name text', () => {
  const byName = FILES.filter((file) => /\.name\s*[!=]==?\s*['"]\w*Error['"]/.test(readFileSync(file, 'utf8')));
  assert.deepEqual(byName.map((file) => relative(REPO_ROOT, file)), []);
});
