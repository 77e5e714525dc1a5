import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { addContext, contextHost, currentContext, listContexts, readConfigFile, removeContext, useContext } from '../../src/cli/contexts.js';
import { resolveSettings } from '../../src/core/settings.js';
import { amuxPaths } from '../../src/paths.js';

describe('contexts in config.json', () => {
  test('add, use, rm keep the settings and the file valid', (t) => {
    const home = mkdtempSync('/tmp/amux-ctx-');
    t.after(() => rmSync(home, { recursive: true, force: true }));
    const paths = amuxPaths(home);
    writeFileSync(paths.config, '{"maxLive": 4, "idleThreshold": "5s"}');
    addContext(paths, 'gpu', 'ssh://ann@gpu');
    useContext(paths, 'gpu');
    let config = readConfigFile(paths);
    assert.equal(currentContext(config), 'gpu');
    assert.equal(contextHost(config, 'gpu'), 'ssh://ann@gpu');
    assert.deepEqual(listContexts(config), [{ name: 'local', host: null }, { name: 'gpu', host: 'ssh://ann@gpu' }]);
    const settings = resolveSettings(config, {});
    assert.equal(settings.maxLive, 4);
    assert.equal(settings.idleThresholdMs, 5000);
    assert.equal(removeContext(paths, 'gpu'), true);
    config = JSON.parse(readFileSync(paths.config, 'utf8'));
    assert.deepEqual(config, { maxLive: 4, idleThreshold: '5s', contexts: {} });
    assert.throws(() => useContext(paths, 'gpu'), (e: any) => e.code === 'usage');
    assert.throws(() => removeContext(paths, 'local'), (e: any) => e.code === 'usage');
    assert.throws(() => addContext(paths, 'local', 'ssh://x'), (e: any) => e.code === 'usage');
  });

  test('a config.json that is not an object is named', (t) => {
    const home = mkdtempSync('/tmp/amux-ctx-');
    t.after(() => rmSync(home, { recursive: true, force: true }));
    const paths = amuxPaths(home);
    writeFileSync(paths.config, '[1]');
    assert.throws(() => readConfigFile(paths), (e: any) => e.code === 'invalid_argument' && e.message.includes(paths.config));
  });
});
