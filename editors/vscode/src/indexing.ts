// The status bar item's state: shown while the server reports work-done
// progress (it does while it indexes the workspace folders), hidden once every
// progress it began has ended.

import type { WorkDoneProgressBegin, WorkDoneProgressEnd, WorkDoneProgressReport } from 'vscode-languageserver-protocol';

type Progress = WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd;
type Token = string | number;

interface Running {
  title: string;
  message?: string;
  percentage?: number;
}

export class IndexingStatus {
  private readonly running = new Map<Token, Running>();

  /** Takes one `$/progress` value; returns true if the text changed. */
  update(token: Token, progress: Progress): boolean {
    const before = this.text();
    switch (progress.kind) {
      case 'begin':
        this.running.set(token, { title: progress.title, message: progress.message, percentage: progress.percentage });
        break;
      case 'report': {
        const running = this.running.get(token);
        if (running !== undefined) {
          running.message = progress.message ?? running.message;
          running.percentage = progress.percentage ?? running.percentage;
        }
        break;
      }
      case 'end':
        this.running.delete(token);
        break;
    }
    return this.text() !== before;
  }

  /** Forgets every progress (the server stopped). */
  clear(): void {
    this.running.clear();
  }

  /** The status bar text, or undefined when the item is hidden. */
  text(): string | undefined {
    const latest = [...this.running.values()].pop();
    if (latest === undefined) {
      return undefined;
    }
    const detail = latest.message ?? latest.title;
    return `$(sync~spin) tofu-lens: ${detail}`;
  }

  /** The tooltip: what the server is doing, in its words. */
  tooltip(): string | undefined {
    const latest = [...this.running.values()].pop();
    if (latest === undefined) {
      return undefined;
    }
    const percentage = latest.percentage === undefined ? '' : ` (${latest.percentage}%)`;
    return `${latest.title}${percentage}. Click to show the tofu-lens log.`;
  }
}
