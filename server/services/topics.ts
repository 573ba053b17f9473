/**
 * Publish and subscribe by key (a vehicle's, a ticket's, a user's events), published after the
 * change committed. What is published goes through the live-event bus (services/live-events.ts),
 * which carries it to the subscribers of every instance, this one's included.
 */
import type { LiveEventBus } from "./live-events";

export class Topics<Event> {
  private readonly listeners = new Map<string, Set<(event: Event) => void>>();

  /** `name` says which stream family the bus carries these events for; one Topics per name and bus. */
  constructor(
    private readonly bus: LiveEventBus,
    private readonly name: string,
  ) {
    bus.attach(name, (key, event) => this.deliver(key, event as Event));
  }

  publish(key: string, event: Event): void {
    this.bus.publish(this.name, key, event);
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

  private deliver(key: string, event: Event): void {
    for (const listener of this.listeners.get(key) ?? []) listener(event);
  }
}
