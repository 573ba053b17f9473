/**
 * Why the session was ended for the user (an administrator disabled or deleted the account, or
 * signed it out everywhere): set before the sign-out, shown by the sign-in page until the next
 * sign-in. Framework-free so the account stream, the session and the page share it.
 */
type Listener = () => void;

let notice: string | null = null;
const listeners = new Set<Listener>();

function set(next: string | null): void {
  if (next === notice) return;
  notice = next;
  for (const listener of listeners) listener();
}

export const signOutNotice = {
  current: (): string | null => notice,
  show: (message: string): void => set(message),
  clear: (): void => set(null),
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
