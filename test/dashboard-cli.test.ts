/** `servebench dashboard` as a user starts it: prints its URL, serves the catalog, stops cleanly on Ctrl-C. */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, runCli } from './helpers/cli.js';
import { seedCatalog } from './dashboard-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'servebench-dashboard-cli-'));
const db = join(dir, 'catalog.db');

before(() => seedCatalog(db));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('servebench dashboard', () => {
  test('prints a loopback URL, serves pages and exits 0 on SIGINT', async () => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin', 'servebench.js'), 'dashboard', '--db', db, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    let stdout = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (text: string) => {
        stdout += text;
        const match = /(http:\/\/127\.0\.0\.1:\d+)\//.exec(stdout);
        if (match) resolve(match[1]!);
      });
      child.on('close', () => reject(new Error(`dashboard exited before listening: ${stdout}`)));
    });
    assert.match(stdout, /catalog .*catalog\.db, 11 runs; Ctrl-C stops/);
    const page = await fetch(`${url}/runs`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /11 of 11 runs/);
    child.kill('SIGINT');
    assert.equal(await exited, 0);
  });

  test('a missing catalog or a bad port is one line and a non-zero exit', async () => {
    const missing = await runCli(['dashboard', '--db', join(dir, 'none.db')]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^servebench dashboard: error: no catalog at .*none\.db; .*\n$/);
    const badPort = await runCli(['dashboard', '--db', db, '--port', '70000']);
    assert.equal(badPort.code, 2);
    assert.equal(badPort.stderr, 'servebench dashboard: error: argument --port: 70000 is out of range: expected an integer from 0 to 65535 (0: any free port)\n');
  });
});
