import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { anthropic } from './anthropic.js';
import { gemini } from './gemini.js';
import { type MockOptions, MockApi } from './mock-api.js';
import { openai } from './openai.js';

/**
 * The three agent CLIs, each in a temporary HOME of its own with its first-run dialogs answered
 * by config files, pointed at a mock API on 127.0.0.1 and kept from any other network (ADR 0051).
 */
export type AgentName = 'claude' | 'codex' | 'gemini';
export const AGENTS: readonly AgentName[] = ['claude', 'codex', 'gemini'];

const REPO = join(__dirname, '..', '..', '..');

/** The cache the CLIs are installed into (scripts/install-agent-clis.sh). */
export function agentCliDir(): string {
  return process.env.AMUX_AGENT_CLI_DIR ?? join(process.env.TMPDIR ?? tmpdir(), 'amux-agent-clis');
}

let installError: string | null | undefined;
/** Installs the pinned CLIs (once per process); answers why they cannot be had, or null. */
export function installAgentClis(): string | null {
  if (installError !== undefined) return installError;
  try {
    execFileSync('bash', [join(REPO, 'scripts', 'install-agent-clis.sh')], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, AMUX_AGENT_CLI_DIR: agentCliDir() }, timeout: 600_000 });
    installError = null;
  } catch (e) {
    installError = `the agent CLIs could not be installed from npm (scripts/install-agent-clis.sh): ${String((e as { stderr?: Buffer }).stderr ?? e).trim().split('\n').slice(-3).join(' ')}`;
  }
  return installError;
}

/** What a recipe adds: the exact config of the recipes of src/guides/agents.md, per CLI. */
export interface Recipe {
  /** Claude Code: merged into ~/.claude/settings.json. */
  claudeSettings?: Record<string, unknown>;
  /** Claude Code: merged into ~/.claude.json (global config, e.g. preferredNotifChannel). */
  claudeConfig?: Record<string, unknown>;
  /** Codex: lines appended to config.toml (top-level keys first: they go before any table). */
  codexTopLevel?: string;
  codexTables?: string;
  /** Gemini CLI: merged into ~/.gemini/settings.json. */
  geminiSettings?: Record<string, unknown>;
}

export interface Agent {
  name: AgentName;
  mock: MockApi;
  /** The argv to run in the session. */
  argv: string[];
  /** The session's environment (passed as `-e K=V`). */
  env: Record<string, string>;
  /** The working directory (a temporary project folder, trusted by config). */
  cwd: string;
  root: string;
  /** The text that shows the CLI is ready at its prompt (on the screen). */
  readyText: RegExp;
  cleanup(): Promise<void>;
}

export const APPROVED_MARK = 'amux-approved';

/** Nothing but 127.0.0.1 reachable: any other request goes to a proxy port where nothing listens. */
function isolatedEnv(root: string): Record<string, string> {
  const home = join(root, 'home');
  return {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    HTTPS_PROXY: 'http://127.0.0.1:9',
    HTTP_PROXY: 'http://127.0.0.1:9',
    https_proxy: 'http://127.0.0.1:9',
    http_proxy: 'http://127.0.0.1:9',
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
    TERM: 'xterm-256color',
    COLORTERM: 'truecolor',
    LANG: 'C.UTF-8',
  };
}

export async function prepareAgent(name: AgentName, options: Partial<MockOptions> = {}, recipe: Recipe = {}): Promise<Agent> {
  const root = mkdtempSync(join(tmpdir(), `amux-agent-${name}-`));
  const cwd = join(root, 'project');
  mkdirSync(join(root, 'home'), { recursive: true });
  mkdirSync(cwd, { recursive: true });
  const opts: MockOptions = {
    streamMs: options.streamMs ?? 2500,
    toolCommand: options.toolCommand ?? 'sleep 3',
    approvalCommand: options.approvalCommand ?? `touch approved.txt && echo ${APPROVED_MARK}`,
  };
  const dialect = name === 'claude' ? anthropic : name === 'codex' ? openai : gemini;
  const mock = await new MockApi(dialect, opts).start();
  const bin = join(agentCliDir(), 'node_modules', '.bin');
  const env = { ...isolatedEnv(root), PATH: `${join(REPO, 'bin')}:${bin}:${process.env.PATH}` };
  const setup = name === 'claude' ? setupClaude : name === 'codex' ? setupCodex : setupGemini;
  const more = setup(root, cwd, mock, opts, recipe);
  return {
    name,
    mock,
    argv: more.argv,
    env: { ...env, ...more.env },
    cwd,
    root,
    readyText: more.readyText,
    async cleanup() {
      await mock.close();
      // A CLI killed a moment ago may still write on its way out (Claude Code's config backups,
      // Codex's app-server state): removed again once they are done; never fatal.
      for (const pause of [0, 2000]) {
        await new Promise((r) => setTimeout(r, pause));
        try {
          rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
        } catch {
          /* left in the temporary directory */
        }
      }
    },
  };
}

/** `base` with `more` merged in, objects key by key: the JSON of a settings file. */
function merged(base: Record<string, unknown>, more: Record<string, unknown> = {}): string {
  const merge = (a: any, b: any): any => {
    if (!a || !b || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) || Array.isArray(b)) return b;
    const out = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = k in a ? merge(a[k], v) : v;
    return out;
  };
  return JSON.stringify(merge(base, more), null, 2);
}

type Setup = (root: string, cwd: string, mock: MockApi, opts: MockOptions, recipe: Recipe) => { argv: string[]; env: Record<string, string>; readyText: RegExp };

const CLAUDE_KEY = 'sk-ant-api03-amux-mock-key-0000000000000000000000';

const setupClaude: Setup = (root, cwd, mock, opts, recipe) => {
  const home = join(root, 'home');
  mkdirSync(join(home, '.claude'), { recursive: true });
  writeFileSync(
    join(home, '.claude.json'),
    merged({
      hasCompletedOnboarding: true,
      lastOnboardingVersion: '2.1.197',
      numStartups: 5,
      theme: 'dark',
      autoUpdates: false,
      customApiKeyResponses: { approved: [CLAUDE_KEY.slice(-20)], rejected: [] },
      projects: { [cwd]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] } },
    }, recipe.claudeConfig),
  );
  writeFileSync(
    join(home, '.claude', 'settings.json'),
    merged({ permissions: { allow: [`Bash(${opts.toolCommand})`] } }, recipe.claudeSettings),
  );
  return {
    argv: ['claude'],
    env: {
      ANTHROPIC_BASE_URL: mock.url,
      ANTHROPIC_API_KEY: CLAUDE_KEY,
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    },
    readyText: /\? for shortcuts|Try "|>\s*$/m,
  };
};

const setupCodex: Setup = (root, cwd, mock, _opts, recipe) => {
  const codexHome = join(root, 'home', '.codex');
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      'model = "gpt-5.1-codex"',
      'model_provider = "mock"',
      'approval_policy = "on-request"',
      'sandbox_mode = "danger-full-access"',
      'check_for_update_on_startup = false',
      recipe.codexTopLevel ?? '',
      '[model_providers.mock]',
      'name = "mock"',
      `base_url = "${mock.url}/v1"`,
      'wire_api = "responses"',
      'env_key = "AMUX_MOCK_API_KEY"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      `[projects."${cwd}"]`,
      'trust_level = "trusted"',
      '[analytics]',
      'enabled = false',
      '[notice]',
      'hide_full_access_warning = true',
      recipe.codexTables ?? '',
    ].join('\n') + '\n',
  );
  // The approval turn's command must be asked about whatever the sandbox allows: an exec policy rule.
  mkdirSync(join(codexHome, 'rules'), { recursive: true });
  writeFileSync(join(codexHome, 'rules', 'default.rules'), `prefix_rule(pattern = ["touch"], decision = "prompt")\n`);
  return { argv: ['codex'], env: { CODEX_HOME: codexHome, AMUX_MOCK_API_KEY: 'mock-key' }, readyText: /context left|Ask Codex|›/ };
};

const setupGemini: Setup = (root, _cwd, mock, opts, recipe) => {
  const dir = join(root, 'home', '.gemini');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'settings.json'),
    merged({
      security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
      ui: { theme: 'Default' },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
    }, recipe.geminiSettings),
  );
  // The tool turn's command runs without asking: user policy rules (the Policy Engine's form), one
  // per part of the command (it judges each part of a compound command).
  mkdirSync(join(dir, 'policies'), { recursive: true });
  const rule = (prefix: string) => `[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = ${JSON.stringify(prefix)}\ndecision = "allow"\npriority = 100\n`;
  writeFileSync(join(dir, 'policies', 'amux-test.toml'), opts.toolCommand.split(/;|&&/).map((part) => rule(part.trim())).join('\n'));
  // CI=true (or GITHUB_ACTIONS=true) in the test's environment, which a session inherits, makes
  // Gemini CLI headless: it reads its prompt from stdin, says "No input provided via stdin" and exits.
  return { argv: ['gemini'], env: { GEMINI_API_KEY: 'mock-key', GOOGLE_GEMINI_BASE_URL: mock.url, CI: '', GITHUB_ACTIONS: '' }, readyText: /Type your message/ };
};
