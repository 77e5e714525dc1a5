import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { AmuxHome, BIN } from './amux.js';
import { freePort } from './net.js';

/**
 * Private OpenSSH servers for the remote-host tests (src/guides/remote.md): each is one "host",
 * an `sshd -D` on 127.0.0.1 and its own port, whose sessions get their own AMUX_HOME (`SetEnv`),
 * so two sshds are two machines. Keys (a host key and a client key) are made per run in a temp
 * directory. Nothing is installed here; scripts/setup.sh installs openssh-server.
 */
const SSHD = '/usr/sbin/sshd';

export interface SshHost {
  port: number;
  url: string;
  /** The "remote" amux: its home, the daemon sessions run under. */
  remote: AmuxHome;
  stop(): Promise<void>;
}

/** Why sshd cannot run here, or null when it can. */
export function sshdUnavailable(): string | null {
  if (!existsSync(SSHD)) return `${SSHD} not found (install openssh-server; scripts/setup.sh does)`;
  try {
    execFileSync('ssh', ['-V'], { stdio: 'ignore' });
  } catch {
    return 'ssh (the OpenSSH client) not found';
  }
  return null;
}


/** One test run's keys and client config; `host()` starts an sshd. */
export class SshLab {
  readonly dir: string;
  readonly clientKey: string;
  readonly otherKey: string;
  /** An ssh config (AMUX_SSH_CONFIG) with the client key and a known_hosts of our own. */
  readonly config: string;
  /** The same, with a key the servers do not accept. */
  readonly badConfig: string;
  private readonly hosts: SshHost[] = [];
  private readonly locals: AmuxHome[] = [];

  constructor() {
    this.dir = mkdtempSync('/tmp/amux-ssh-');
    chmodSync(this.dir, 0o700);
    this.clientKey = join(this.dir, 'id_client');
    this.otherKey = join(this.dir, 'id_other');
    for (const k of [this.clientKey, this.otherKey]) execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'amux-test', '-f', k]);
    writeFileSync(join(this.dir, 'authorized_keys'), readFileSync(`${this.clientKey}.pub`), { mode: 0o600 });
    const cfg = (key: string) =>
      [
        'Host *',
        `  IdentityFile ${key}`,
        '  IdentitiesOnly yes',
        `  UserKnownHostsFile ${join(this.dir, 'known_hosts')}`,
        '  StrictHostKeyChecking accept-new',
        '  LogLevel ERROR',
        '',
      ].join('\n');
    this.config = join(this.dir, 'ssh_config');
    this.badConfig = join(this.dir, 'ssh_config_bad');
    writeFileSync(this.config, cfg(this.clientKey), { mode: 0o600 });
    writeFileSync(this.badConfig, cfg(this.otherKey), { mode: 0o600 });
  }

  /** The environment a local amux needs to reach the lab's hosts. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return { AMUX_SSH_CONFIG: this.config, AMUX_REMOTE_PATH: BIN, ...extra };
  }

  /** A local amux home whose commands reach the lab's hosts; with `t`, removed (its ssh masters closed) when the test ends. */
  local(t?: { after: (fn: () => Promise<void>) => void }, extra: Record<string, string> = {}): AmuxHome {
    const h = new AmuxHome(this.env(extra));
    this.locals.push(h);
    t?.after(async () => {
      this.closeMasters(h.home);
      await h.cleanup();
    });
    return h;
  }

  /** A port nothing listens on (a host that is down). */
  deadPort(): Promise<number> {
    return freePort();
  }

  /** An executable in the lab that stands for `amux` on the far side with `script` as its body. */
  fakeAmux(name: string, script: string): string {
    const f = join(this.dir, name);
    writeFileSync(f, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
    return f;
  }

  /** Starts one host: a private sshd whose sessions use a fresh AMUX_HOME. Rejects when sshd cannot start. */
  async host(): Promise<SshHost> {
    const remote = new AmuxHome();
    const port = await freePort();
    const hdir = mkdtempSync(join(this.dir, 'h-'));
    const hostKey = join(hdir, 'host_ed25519');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey]);
    const path = [dirname(process.execPath), '/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'].join(':');
    const root = process.getuid?.() === 0;
    const config = join(hdir, 'sshd_config');
    writeFileSync(
      config,
      [
        `Port ${port}`,
        'ListenAddress 127.0.0.1',
        `HostKey ${hostKey}`,
        `PidFile ${join(hdir, 'sshd.pid')}`,
        `AuthorizedKeysFile ${join(this.dir, 'authorized_keys')}`,
        `AllowUsers ${userInfo().username}`,
        'StrictModes no',
        'UsePAM no',
        'PubkeyAuthentication yes',
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        `PermitRootLogin ${root ? 'yes' : 'no'}`,
        'PrintMotd no',
        'LogLevel ERROR',
        // SHLVL=1: bash run by sshd would otherwise read ~/.bashrc (slow on some machines), as for any ssh command.
        `SetEnv AMUX_HOME=${remote.home} PATH=${path} NO_COLOR=1 SHLVL=1`,
        '',
      ].join('\n'),
    );
    if (root && !existsSync('/run/sshd')) execFileSync('mkdir', ['-p', '-m', '0755', '/run/sshd']);
    const child: ChildProcess = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    // Up once it accepts a connection on its port.
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (child.exitCode !== null) break;
      if (await accepts(port)) break;
      if (Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    if (child.exitCode !== null || !(await accepts(port))) {
      child.kill('SIGKILL');
      await remote.cleanup();
      throw new Error(`sshd did not start: ${stderr.trim() || `exit ${child.exitCode}`}`);
    }
    const host: SshHost = {
      port,
      url: `ssh://${userInfo().username}@127.0.0.1:${port}`,
      remote,
      stop: async () => {
        if (child.exitCode === null) {
          child.kill('SIGTERM');
          await exited;
        }
      },
    };
    this.hosts.push(host);
    return host;
  }

  /** Ends the shared connections of a local home (its AMUX_HOME/ssh sockets). */
  closeMasters(home: string): void {
    const dir = join(home, 'ssh');
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      try {
        execFileSync('ssh', ['-F', this.config, '-o', `ControlPath=${join(dir, name)}`, '-O', 'exit', 'x'], { stdio: 'ignore', timeout: 5000 });
      } catch {
        /* gone */
      }
    }
  }

  /** Stops every sshd and removes the homes of the hosts and the keys. */
  async cleanup(): Promise<void> {
    for (const l of this.locals) {
      this.closeMasters(l.home);
      await l.cleanup();
    }
    for (const h of this.hosts) {
      await h.stop();
      this.closeMasters(h.remote.home);
      await h.remote.cleanup();
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}
