/**
 * Dialog store: the state behind the dialog host.
 *
 * Dialogs are keyed by numeric strings. `open` takes the first unused key from "0" to "99";
 * with 100 dialogs held, it throws "Maximum number of dialogs reached". `close` on a key the
 * store does not hold throws "Overlay not found".
 *
 * A dialog goes through two steps when it closes: `close` (or a successful `dismiss`) marks it
 * not visible so the host can play the exit animation, and the host calls `remove` once the
 * animation has ended. The key stays taken until then, so a dialog that is still fading out is
 * never confused with a new one under the same key.
 *
 * `close(key)` is the programmatic close (for example after the dialog's form was saved) and is
 * unconditional. `dismiss(key, reason)` is a close the user asked for (Escape, the close button,
 * a click outside); the dialog's `closeDialogFunction`, when present, decides it, and an outside
 * click only ever dismisses the topmost dialog and never one with `barrierDismissible: false`.
 *
 * The store knows nothing about React and reads only the two options that decide a close
 * (`barrierDismissible`, `closeDialogFunction`); content and the other options are type
 * parameters that it keeps for the host. `subscribe`/`getSnapshot` fit `useSyncExternalStore`.
 */

export const MAX_DIALOGS = 100;

export const MAX_DIALOGS_MESSAGE = "Maximum number of dialogs reached";
export const OVERLAY_NOT_FOUND_MESSAGE = "Overlay not found";

export type DialogCloseReason = "escape" | "close-button" | "outside-click";

/**
 * Decides a user-requested close. Returning `false` (or a promise of `false`) keeps the dialog
 * open; anything else lets it close. A rejection keeps the dialog open and reaches the caller.
 */
export type CloseDialogFunction = (key: string, reason: DialogCloseReason) => boolean | void | Promise<boolean | void>;

export interface DialogIcon<Name extends string = string> {
  name: Name;
  baseClass?: string;
  iconClass?: string;
}

/** The options the store itself acts on. */
export interface DialogBehaviour {
  /** `false` means an outside click never dismisses this dialog. */
  barrierDismissible?: boolean;
  closeDialogFunction?: CloseDialogFunction;
}

/** What a dialog can be opened with: its header, icon, footer and behaviour. */
export interface DialogOptions<Node = unknown, Ui = unknown, IconName extends string = string> extends DialogBehaviour {
  header?: Node;
  hideHeader?: boolean;
  icon?: DialogIcon<IconName>;
  /** Props handed to the content when the content is a component. */
  props?: object;
  /** Presentation overrides, interpreted by the host. */
  ui?: Ui;
}

export interface DialogEntry<Content = unknown, Options extends DialogBehaviour = DialogOptions> {
  readonly key: string;
  readonly content: Content;
  readonly options: Options;
  readonly visible: boolean;
}

export class DialogStore<Content = unknown, Options extends DialogBehaviour = DialogOptions> {
  /** Bottom to top: the last visible entry is the topmost dialog. */
  #entries: readonly DialogEntry<Content, Options>[] = [];
  readonly #listeners = new Set<() => void>();
  /**
   * A hook that is still deciding answers every further request for the same dialog. Keyed by
   * entry, not key: the key may be freed and reused by a new dialog before a slow hook answers.
   */
  readonly #pending = new Map<DialogEntry<Content, Options>, Promise<boolean>>();

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  readonly getSnapshot = (): readonly DialogEntry<Content, Options>[] => this.#entries;

  open(content: Content, options: Options): string {
    const taken = new Set(this.#entries.map((entry) => entry.key));
    for (let index = 0; index < MAX_DIALOGS; index += 1) {
      const key = String(index);
      if (!taken.has(key)) {
        this.#set([...this.#entries, { key, content, options, visible: true }]);
        return key;
      }
    }
    throw new Error(MAX_DIALOGS_MESSAGE);
  }

  close(key: string): void {
    const entry = this.#find(key);
    if (entry.visible) this.#hide(key);
  }

  async dismiss(key: string, reason: DialogCloseReason): Promise<boolean> {
    const entry = this.#find(key);
    if (!entry.visible) return true;
    if (reason === "outside-click") {
      if (entry.options.barrierDismissible === false) return false;
      if (this.topmost()?.key !== key) return false;
    }
    const hook = entry.options.closeDialogFunction;
    if (!hook) {
      this.#hide(key);
      return true;
    }
    const running = this.#pending.get(entry);
    if (running) return running;
    const decision = (async () => {
      try {
        const answer = await hook(key, reason);
        if (answer === false) return false;
        // Unless the dialog was closed (and perhaps its key reused) while the hook was deciding.
        if (this.#entries.includes(entry)) this.#hide(key);
        return true;
      } finally {
        this.#pending.delete(entry);
      }
    })();
    this.#pending.set(entry, decision);
    return decision;
  }

  /** Dismisses the topmost visible dialog; `false` when there is none or it refused. */
  dismissTopmost(reason: DialogCloseReason): Promise<boolean> {
    const top = this.topmost();
    return top ? this.dismiss(top.key, reason) : Promise.resolve(false);
  }

  /** Frees the key of a closed dialog; the host calls it when the exit animation has ended. */
  remove(key: string): void {
    if (this.#entries.some((entry) => entry.key === key && !entry.visible)) {
      this.#set(this.#entries.filter((entry) => entry.key !== key));
    }
  }

  topmost(): DialogEntry<Content, Options> | undefined {
    return this.#entries.findLast((entry) => entry.visible);
  }

  #find(key: string): DialogEntry<Content, Options> {
    const entry = this.#entries.find((candidate) => candidate.key === key);
    if (!entry) throw new Error(OVERLAY_NOT_FOUND_MESSAGE);
    return entry;
  }

  #hide(key: string): void {
    this.#set(this.#entries.map((entry) => (entry.key === key ? { ...entry, visible: false } : entry)));
  }

  #set(entries: readonly DialogEntry<Content, Options>[]): void {
    this.#entries = entries;
    for (const listener of this.#listeners) listener();
  }
}
