// The server logs with `tracing` to stderr, one line per event:
// `2026-11-23T05:42:00.123456Z  INFO tofu_lsp::workspace: indexing 3 module directories`.
// The output channel has its own timestamps and levels, so each line is split
// into its level and the rest. Lines of any other shape (a panic message, say)
// are kept whole, as errors.

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

export interface LogLine {
  level: LogLevel;
  message: string;
}

const TRACING_LINE = /^\S+\s+(TRACE|DEBUG|INFO|WARN|ERROR)\s+(.*)$/;

export function parseServerLogLine(line: string): LogLine {
  const match = TRACING_LINE.exec(line);
  if (match === null) {
    return { level: 'error', message: line };
  }
  return { level: match[1].toLowerCase() as LogLevel, message: match[2] };
}
