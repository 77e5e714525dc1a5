import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS, resolveSettings } from '../../src/core/settings.js';

const MiB = 1024 * 1024;

/** Asserts an invalid_argument error whose message names `setting`. */
function badSetting(setting: string) {
  return (err: Error & { code?: string; exitCode?: number }) => {
    assert.equal(err.name, 'AmuxError');
    assert.equal(err.code, 'invalid_argument');
    assert.equal(err.exitCode, 2);
    assert.ok(err.message.includes(setting), `${JSON.stringify(err.message)} should name ${setting}`);
    return true;
  };
}

describe('resolveSettings', () => {
  test('defaults (src/guides/configuration.md)', () => {
    assert.deepEqual(resolveSettings({}, {}), {
      maxLive: 0, idleThresholdMs: 3000, logCapBytes: 8 * MiB, statusCacheMs: 2000,
      finishedTtlMs: 30 * 60_000, historyRetentionMs: 30 * 86_400_000, sweepIntervalMs: 60_000, restAfterMs: 30_000, settleMs: 1000,
      hooks: { onEnd: null, onFailure: null },
    });
  });

  test('hooks: onEnd and onFailure command lines; anything else names the hook (src/guides/sessions.md "Notices")', () => {
    assert.deepEqual(resolveSettings({ hooks: { onFailure: 'notify-send x' } }, {}).hooks, { onEnd: null, onFailure: 'notify-send x' });
    assert.throws(() => resolveSettings({ hooks: { onExit: 'x' } }, {}), /unknown hook 'onExit'/);
    assert.throws(() => resolveSettings({ hooks: { onEnd: '' } }, {}), /hooks.onEnd/);
    assert.throws(() => resolveSettings({ hooks: 'x' }, {}), /must be an object/);
  });

  test('maxLive: a whole number from config or AMUX_MAX_LIVE; anything else names the setting', () => {
    assert.equal(resolveSettings({ maxLive: 4 }, {}).maxLive, 4);
    assert.equal(resolveSettings({ maxLive: 4 }, { AMUX_MAX_LIVE: '0' }).maxLive, 0, '0 = unlimited, and the variable wins');
    for (const v of ['-1', '2.5', 'many', '1e3']) assert.throws(() => resolveSettings({}, { AMUX_MAX_LIVE: v }), badSetting('AMUX_MAX_LIVE'));
    assert.throws(() => resolveSettings({ maxLive: [2] }, {}), badSetting('maxLive in config.json'));
  });

  test('a number JSON reads as Infinity (1e309) is refused, and shown as such, not as null', () => {
    for (const key of ['maxLive', 'idleThreshold', 'logCap']) {
      assert.throws(() => resolveSettings(JSON.parse(`{"${key}": 1e309}`), {}), (err: Error) => {
        badSetting(`${key} in config.json=Infinity: must be a finite number`)(err as any);
        return true;
      });
    }
  });

  test('finishedTtl is clamped to 1m–180m; the test-only variable is not', () => {
    assert.equal(resolveSettings({ finishedTtl: '10s' }, {}).finishedTtlMs, 60_000);
    assert.equal(resolveSettings({}, { AMUX_FINISHED_TTL: '5h' }).finishedTtlMs, 180 * 60_000);
    assert.equal(resolveSettings({}, { AMUX_FINISHED_TTL: '45m' }).finishedTtlMs, 45 * 60_000);
    assert.equal(resolveSettings({ finishedTtl: '45m' }, { AMUX_TEST_FINISHED_TTL: '1s' }).finishedTtlMs, 1000);
    assert.throws(() => resolveSettings({}, { AMUX_FINISHED_TTL: 'later' }), badSetting('AMUX_FINISHED_TTL'));
  });

  test('historyRetention: a duration of at least 1m', () => {
    assert.equal(resolveSettings({ historyRetention: '7d' }, {}).historyRetentionMs, 7 * 86_400_000);
    assert.throws(() => resolveSettings({}, { AMUX_HISTORY_RETENTION: '30s' }), badSetting('historyRetention'));
    assert.throws(() => resolveSettings({ historyRetention: 'forever' }, {}), badSetting('historyRetention in config.json'));
  });

  test('test-only variables are read from the environment only', () => {
    assert.equal(resolveSettings({ AMUX_TEST_SWEEP_INTERVAL: '1s', '': '1s' }, {}).sweepIntervalMs, 60_000);
    assert.equal(resolveSettings({}, { AMUX_TEST_SWEEP_INTERVAL: '250ms' }).sweepIntervalMs, 250);
    assert.throws(() => resolveSettings({}, { AMUX_TEST_SWEEP_INTERVAL: '10ms' }), badSetting('AMUX_TEST_SWEEP_INTERVAL'));
    assert.equal(resolveSettings({}, { AMUX_TEST_REST_AFTER: '2s' }).restAfterMs, 2000);
    assert.equal(resolveSettings({}, { AMUX_TEST_SETTLE: '1m' }).settleMs, 60_000);
    assert.throws(() => resolveSettings({}, { AMUX_TEST_REST_AFTER: 'soon' }), badSetting('AMUX_TEST_REST_AFTER'));
  });

  test('config values', () => {
    const s = resolveSettings({ idleThreshold: '5s', logCap: '1MiB' }, {});
    assert.equal(s.idleThresholdMs, 5000);
    assert.equal(s.logCapBytes, MiB);
  });

  test('config numbers: a bare number of seconds, a bare number of bytes', () => {
    const s = resolveSettings({ idleThreshold: 10, logCap: 65536 }, {});
    assert.equal(s.idleThresholdMs, 10_000);
    assert.equal(s.logCapBytes, 65_536);
  });

  test('environment variables', () => {
    const s = resolveSettings({}, { AMUX_IDLE_THRESHOLD: '750ms', AMUX_LOG_CAP: '512KiB' });
    assert.equal(s.idleThresholdMs, 750);
    assert.equal(s.logCapBytes, 512 * 1024);
  });

  test('the environment wins over config.json', () => {
    const s = resolveSettings({ idleThreshold: '5s', logCap: '1MiB' }, { AMUX_IDLE_THRESHOLD: '1s', AMUX_LOG_CAP: '2MiB' });
    assert.equal(s.idleThresholdMs, 1000);
    assert.equal(s.logCapBytes, 2 * MiB);
  });

  test('unrelated keys and variables are ignored', () => {
    assert.deepEqual(resolveSettings({ colour: 'blue', idle: 'x' }, { AMUX_OTHER: 'x', IDLE_THRESHOLD: 'x' }), DEFAULT_SETTINGS);
  });

  test('an empty value means unset', () => {
    assert.deepEqual(resolveSettings({ idleThreshold: '', logCap: '' }, {}), DEFAULT_SETTINGS);
    assert.deepEqual(resolveSettings({}, { AMUX_IDLE_THRESHOLD: '', AMUX_LOG_CAP: '' }), DEFAULT_SETTINGS);
  });

  test(
    'an empty variable falls back to config.json',
    () => {
      const s = resolveSettings({ idleThreshold: '5s' }, { AMUX_IDLE_THRESHOLD: '' });
      assert.equal(s.idleThresholdMs, 5000);
    },
  );

  test('does not modify the defaults', () => {
    resolveSettings({ idleThreshold: '9s' }, {});
    assert.equal(DEFAULT_SETTINGS.idleThresholdMs, 3000);
  });

  test('a bad variable names the variable', () => {
    assert.throws(() => resolveSettings({}, { AMUX_IDLE_THRESHOLD: 'soon' }), badSetting('AMUX_IDLE_THRESHOLD'));
    assert.throws(() => resolveSettings({}, { AMUX_LOG_CAP: 'lots' }), badSetting('AMUX_LOG_CAP'));
  });

  test('a bad config value names the config key', () => {
    assert.throws(() => resolveSettings({ idleThreshold: '3 s' }, {}), badSetting('idleThreshold in config.json'));
    assert.throws(() => resolveSettings({ logCap: '8TB' }, {}), badSetting('logCap in config.json'));
    assert.throws(() => resolveSettings({ idleThreshold: true }, {}), badSetting('idleThreshold'));
  });

  test('a bad variable is reported even when config.json is fine', () => {
    assert.throws(() => resolveSettings({ idleThreshold: '5s' }, { AMUX_IDLE_THRESHOLD: '-1s' }), badSetting('AMUX_IDLE_THRESHOLD'));
  });

  test('minimums: idleThreshold ≥ 100ms, logCap ≥ 4KiB', () => {
    assert.equal(resolveSettings({}, { AMUX_IDLE_THRESHOLD: '100ms' }).idleThresholdMs, 100);
    assert.throws(() => resolveSettings({}, { AMUX_IDLE_THRESHOLD: '99ms' }), badSetting('idleThreshold'));
    assert.throws(() => resolveSettings({}, { AMUX_IDLE_THRESHOLD: '0' }), badSetting('idleThreshold'));
    assert.equal(resolveSettings({}, { AMUX_LOG_CAP: '4KiB' }).logCapBytes, 4096);
    assert.throws(() => resolveSettings({}, { AMUX_LOG_CAP: '4095' }), badSetting('logCap'));
    assert.throws(() => resolveSettings({ logCap: '0' }, {}), badSetting('logCap'));
  });

  test('a known key in another spelling is refused, naming the one meant; other unknown keys are left alone', () => {
    assert.throws(() => resolveSettings({ maxlive: 3 }, {}), /unknown setting 'maxlive' in config.json: did you mean 'maxLive'\?/);
    assert.throws(() => resolveSettings({ 'idle-threshold': '5s' }, {}), /did you mean 'idleThreshold'/);
    assert.equal(resolveSettings({ futureSetting: 1, contexts: {} }, {}).maxLive, 0);
  });
});
