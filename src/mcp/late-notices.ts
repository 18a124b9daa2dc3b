/**
 * Notices that arise after start-up (an MCP server that failed to start, crashed or timed out):
 * each one goes to every listener once; ones that came while nobody listened are handed to the
 * first listener, so none is lost between start-up and the UI subscribing.
 */
export class LateNotices {
  private readonly listeners = new Set<(text: string) => void>();
  private readonly unheard: string[] = [];

  /** Subscribes; delivers the unheard notices at once. Returns the unsubscribe function. */
  subscribe(listener: (text: string) => void): () => void {
    this.listeners.add(listener);
    for (const text of this.unheard.splice(0)) listener(text);
    return () => void this.listeners.delete(listener);
  }

  /** Passes `text` to every listener (or keeps it for the first one). */
  publish(text: string): void {
    if (this.listeners.size === 0) this.unheard.push(text);
    for (const listener of this.listeners) listener(text);
  }
}
