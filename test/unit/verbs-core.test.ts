import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { emptyFilters, expandStatusWords, globRegex, matchesFilters, parseFilter } from '../../src/core/filters.js';
import { checkLabels, labelsText, parseLabelArg } from '../../src/core/labels.js';
import { nextBackoff, parseRestartPolicy, policyText, shouldRestart } from '../../src/core/restart-policy.js';
import { applyFormat, parseFormat } from '../../src/cli/format.js';

describe('labels', () => {
  test('-l KEY=VALUE, -l KEY, repeatable; bad keys and values refused with exit 2', () => {
    assert.deepEqual(parseLabelArg('b', parseLabelArg('team=ci=x')), { team: 'ci=x', b: '' });
    assert.throws(() => parseLabelArg('=v'), (e: any) => e.exitCode === 2 && /label key/.test(e.message));
    assert.throws(() => parseLabelArg('-x=1'), (e: any) => e.exitCode === 2);
    assert.throws(() => parseLabelArg('k=a\nb'), (e: any) => e.exitCode === 2 && /control/.test(e.message));
    assert.throws(() => checkLabels(Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, '']))), /at most 32/);
    assert.equal(labelsText({ z: '1', a: '', m: 'x' }), 'a,m=x,z=1');
  });
});

describe('filters', () => {
  test('live and finished stand for their status sets', () => {
    assert.deepEqual(expandStatusWords('live'), ['pending', 'working', 'idle', 'paused']);
    assert.deepEqual(expandStatusWords('finished,failed'), ['completed', 'failed', 'stopped', 'expired']);
  });
  test('name globs, labels present or equal, statuses: all must hold', () => {
    let f = parseFilter('name=web*');
    f = parseFilter('label=team=ci', f);
    f = parseFilter('label=tier', f);
    const s = { name: 'web-1', status: 'working' as const, labels: { team: 'ci', tier: '' } };
    assert.equal(matchesFilters(s, f), true);
    assert.equal(matchesFilters({ ...s, labels: { team: 'cd', tier: '1' } }, f), false);
    assert.equal(matchesFilters({ ...s, labels: { team: 'ci' } }, f), false, 'tier must be present');
    assert.equal(matchesFilters({ ...s, name: null }, f), false, 'no name never matches a name glob');
    assert.equal(matchesFilters(s, parseFilter('status=finished')), false);
    assert.equal(matchesFilters(s, emptyFilters()), true);
  });
  test('globs are literal but for * and ?', () => {
    assert.equal(globRegex('a.b?').test('a.bc'), true);
    assert.equal(globRegex('a.b?').test('axbc'), false);
    assert.equal(globRegex('(x)*').test('(x)yz'), true);
  });
  test('unknown keys and statuses are usage errors', () => {
    assert.throws(() => parseFilter('nam=x'), (e: any) => e.exitCode === 2 && /name=GLOB/.test(e.message));
    assert.throws(() => parseFilter('label='), (e: any) => e.exitCode === 2);
    assert.throws(() => parseFilter('status=alive'), (e: any) => e.exitCode === 2 && /live or finished/.test(e.message));
  });
});

describe('restart policy', () => {
  test('parse: no, on-failure[:N], always; others refused', () => {
    assert.equal(parseRestartPolicy('no'), null);
    assert.deepEqual(parseRestartPolicy('on-failure:3'), { when: 'on-failure', max: 3 });
    assert.equal(policyText(parseRestartPolicy('always')), 'always');
    for (const bad of ['always:2', 'on-failure:0', 'sometimes', 'on-failure:']) assert.throws(() => parseRestartPolicy(bad), /restart policy/);
  });
  test('on-failure restarts failed only; always all but stopped; N in a row at most', () => {
    const onf = parseRestartPolicy('on-failure:2');
    assert.equal(shouldRestart(onf, 'failed', 0), true);
    assert.equal(shouldRestart(onf, 'failed', 2), false);
    assert.equal(shouldRestart(onf, 'completed', 0), false);
    assert.equal(shouldRestart(onf, 'expired', 0), false);
    const always = parseRestartPolicy('always');
    assert.equal(shouldRestart(always, 'completed', 99), true);
    assert.equal(shouldRestart(always, 'stopped', 0), false, 'kill ends the policy');
    assert.equal(shouldRestart(null, 'failed', 0), false);
  });
  test('backoff: 1 s doubling to 60 s, back to 1 s after a run of 60 s', () => {
    assert.equal(nextBackoff(null, 10), 1000);
    assert.equal(nextBackoff(1000, 10), 2000);
    assert.equal(nextBackoff(32_000, 10), 60_000);
    assert.equal(nextBackoff(60_000, 10), 60_000);
    assert.equal(nextBackoff(60_000, 60_000), 1000);
  });
});

describe('--format', () => {
  const rows = [{ id: 'a1', exitCode: 0, labels: { k: 'v' }, name: null }, { id: 'b2', exitCode: null, labels: {}, name: 'web' }];
  const fields = ['id', 'exitCode', 'labels', 'name'];
  test('a template per row, any case, \\t as a tab', () => {
    assert.equal(applyFormat(parseFormat('{{.ID}}\\t{{.exitcode}}|{{.Name}}', fields), rows), 'a1\t0|\nb2\t|web\n');
  });
  test('json forms', () => {
    assert.equal(applyFormat(parseFormat('json', fields), rows.slice(0, 1)), `${JSON.stringify(rows[0])}\n`);
    assert.equal(applyFormat(parseFormat('{{json .Labels}}', fields), rows), '{"k":"v"}\n{}\n');
    assert.equal(applyFormat(parseFormat('{{ json . }}', fields), rows.slice(1)), `${JSON.stringify(rows[1])}\n`);
  });
  test('table: a header from the field names, aligned columns', () => {
    assert.equal(applyFormat(parseFormat('table {{.ID}}\\t{{.ExitCode}}\\t{{.Labels}}', fields), rows), 'ID  EXIT CODE  LABELS\na1  0          k=v\nb2\n');
  });
  test('unknown fields and unreadable actions are usage errors naming the fields', () => {
    assert.throws(() => parseFormat('{{.Nope}}', fields), (e: any) => e.exitCode === 2 && /fields: id, exitCode, labels, name/.test(e.message));
    assert.throws(() => parseFormat('{{.ID | upper}}', fields), (e: any) => e.exitCode === 2);
    assert.throws(() => parseFormat('{{.}}', fields), (e: any) => e.exitCode === 2);
    assert.throws(() => parseFormat('table', fields), (e: any) => e.exitCode === 2);
  });
});

describe('send --keys names', () => {
  test('tmux key names, modifiers, single characters and ^X pass', async () => {
    const { checkKeys } = await import('../../src/core/keys.js');
    assert.deepEqual(checkKeys(['C-c', 'Enter', 'escape', 'M-S-Up', 'F12', 'a', '^C', 'KPEnter', 'BSpace', 'C-M-x', 'é']), ['C-c', 'Enter', 'escape', 'M-S-Up', 'F12', 'a', '^C', 'KPEnter', 'BSpace', 'C-M-x', 'é']);
  });
  test('a word that is not a key is refused with a hint', async () => {
    const { checkKeys } = await import('../../src/core/keys.js');
    assert.throws(() => checkKeys(['NoSuchKey']), (e: any) => e.exitCode === 2 && /'NoSuchKey' is not a tmux key name;/.test(e.message));
    assert.throws(() => checkKeys(['Ctrl-C']), /did you mean C-c\?/);
    assert.throws(() => checkKeys(['Enter', 'Esc']), /'Esc'.*did you mean Escape\?/);
    assert.throws(() => checkKeys(['F13']), /not a tmux key name/);
  });
});
