import { readConfigFile, writeConfigFile } from '../../config-file.js';
import { resolveSettings, settingEnvOf } from '../../core/settings.js';
import { AmuxError } from '../../errors.js';
import type { GroupView, SetConfigAnswer } from '../../protocol/groups.js';
import { ROUTES } from '../../protocol/routes.js';
import type { Engine } from './index.js';
import type { Router } from './router.js';

/** Groups with their parallel limits, and settings changed while the daemon runs (src/guides/sessions.md "Restart, labels, groups", src/guides/configuration.md). */
export function registerConfigRoutes(r: Router, { ctx, queue }: Engine): void {
  r.on(ROUTES.listGroups, async (): Promise<GroupView[]> => {
    const counts = ctx.store.groupCounts();
    return ctx.store.listGroups().map((g) => ({ name: g.name, parallel: g.parallel, ...(counts.get(g.name) ?? { live: 0, pending: 0 }) }));
  });

  r.on(ROUTES.setGroup, async (q): Promise<GroupView> => {
    const { name, parallel } = (await q.body()) as { name: string; parallel: number };
    ctx.store.tx(() => {
      ctx.store.setGroup(name, parallel, Date.now());
    });
    queue.pump(); // a raised limit starts waiting sessions at once
    const c = ctx.store.groupCounts().get(name) ?? { live: 0, pending: 0 };
    return { name, parallel, ...c };
  });

  r.on(ROUTES.removeGroup, async (q): Promise<{ name: string }> => {
    const name = q.params.name!;
    if (!ctx.store.getGroup(name)) throw new AmuxError('not_found', `no such group '${name}' (see 'amux group ls')`);
    const c = ctx.store.groupCounts().get(name);
    if (c && c.pending > 0) throw new AmuxError('invalid_state', `group '${name}' has ${c.pending} pending session(s) waiting for it; remove or kill them first`);
    ctx.store.deleteGroup(name);
    return { name };
  });

  r.on(ROUTES.setConfig, async (q): Promise<SetConfigAnswer> => {
    const { key, value } = (await q.body()) as { key: string; value: string | number | null };
    const env = settingEnvOf(key);
    if (env === null) throw new AmuxError('invalid_argument', `unknown setting '${key}': use maxLive, idleThreshold, logCap, finishedTtl or historyRetention`);
    // config.json's empty value means "not set": an empty value set would be the default in disguise.
    if (typeof value === 'string' && value.trim() === '') throw new AmuxError('invalid_argument', `an empty value for ${key}: give one, or go back to the default with 'amux config unset ${key}'`);
    const config = readConfigFile(ctx.paths);
    const next = { ...config };
    if (value === null) delete next[key];
    else next[key] = value;
    // Checked whole, as a daemon start would; nothing is written or changed when it fails.
    const settings = resolveSettings(next, process.env);
    writeConfigFile(ctx.paths, next);
    Object.assign(ctx.settings, settings);
    queue.pump(); // a raised maxLive starts waiting sessions at once
    return { settings: ctx.settings, overriddenBy: process.env[env] ? env : null };
  });
}
