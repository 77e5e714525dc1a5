import type { ToolContext } from './context.js';
import { controlTools } from './tools-control.js';
import { readTools } from './tools-read.js';
import { runTools } from './tools-run.js';
import type { ToolSpec } from './toolkit.js';

/** amux's MCP tools (src/guides/agents.md: the tool list), in the order they are listed. */
export function amuxTools(ctx: ToolContext): ToolSpec[] {
  const [run, exec] = runTools(ctx);
  const [list, inspect, readOutput, screen, jobs] = readTools();
  const [send, wait, kill, remove] = controlTools(ctx);
  return [run!, exec!, list!, inspect!, readOutput!, screen!, send!, wait!, kill!, remove!, jobs!];
}
