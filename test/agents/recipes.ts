import type { Recipe } from './clis.js';

/**
 * The recipes of src/guides/agents.md (`amux help agents`), exactly as written there (the tests check that the guide holds
 * these texts verbatim, then run the CLIs with them).
 */

/** Claude Code: ~/.claude/settings.json (or the project's .claude/settings.json). */
export const CLAUDE_HOOKS = `{
  "hooks": {
    "UserPromptSubmit": [{ "hooks": [{ "type": "command", "command": "[ -z \\"$AMUX_SESSION_ID\\" ] || amux state working" }] }],
    "PostToolUse": [{ "matcher": "*", "hooks": [{ "type": "command", "command": "[ -z \\"$AMUX_SESSION_ID\\" ] || amux state working" }] }],
    "PermissionRequest": [{ "matcher": "*", "hooks": [{ "type": "command", "command": "[ -z \\"$AMUX_SESSION_ID\\" ] || amux state waiting --message \\"$(jq -r '.tool_name')\\"" }] }],
    "Stop": [{ "hooks": [{ "type": "command", "command": "[ -z \\"$AMUX_SESSION_ID\\" ] || amux state ready" }] }]
  }
}`;

/** Claude Code: its notification channel, in ~/.claude.json (\`claude config set --global preferredNotifChannel terminal_bell\`). */
export const CLAUDE_NOTIF = `{ "preferredNotifChannel": "terminal_bell" }`;

/** Codex: ~/.codex/config.toml, its approval prompts as OSC 9 notifications inside tmux too. */
export const CODEX_TUI = `[tui]
notifications = true
notification_method = "osc9"
notification_condition = "always"`;

/** Gemini CLI: ~/.gemini/settings.json. */
export const GEMINI_NOTIFY = `{ "general": { "enableNotifications": true, "notificationMethod": "bell" } }`;

/** What each CLI's tests run with: its notification settings (hooks and notify separately). */
export const NOTIFICATIONS: Record<string, Recipe> = {
  claude: { claudeConfig: JSON.parse(CLAUDE_NOTIF) },
  codex: { codexTables: CODEX_TUI },
  gemini: { geminiSettings: JSON.parse(GEMINI_NOTIFY) },
};

/**
 * The recipes that declare states, with the notifications: Claude's hooks; Codex needs none, its
 * OSC 7501 reports declare its turns (ADR 0049, ADR 0060).
 */
export const DECLARING: Record<string, Recipe> = {
  claude: { ...NOTIFICATIONS.claude, claudeSettings: JSON.parse(CLAUDE_HOOKS) },
  codex: { ...NOTIFICATIONS.codex },
};

export const README_TEXTS = [CLAUDE_HOOKS, CODEX_TUI, GEMINI_NOTIFY];
