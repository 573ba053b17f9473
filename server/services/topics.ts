/**
 * In-process publish and subscribe by key (a vehicle's, a ticket's events): published after the
 * change committed, like notifications. One process serves the portal; several would carry these
 * over PostgreSQL LISTEN/NOTIFY instead.
 */
export class Topics<Event> {
  private readonly listeners = new Map<string, Set<(event: Event) => void>>();

  publish(key: string, event: Event): void {
    for (const listener of this.listeners.get(key) ?? []) listener(event);
  }

  subscribe(key: string, listener: (event: Event) => void): () => void {
    const set = this.listeners.get(key) ?? new Set();
    set.add(listener);
    this.listeners.set(key, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(key);
    };
  }
}
