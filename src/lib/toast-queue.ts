/**
 * Toast queue: the state and timers behind the toaster.
 *
 * - `add(input)` validates and shows a toast and returns its id. Adding with the id of a toast
 *   that is still held replaces it in place and restarts its timer: Refine reopens an undoable
 *   notification under the same key every second and then turns it into the success message.
 * - The queue keeps the newest 5 toasts; older ones are dropped at once.
 * - A toast closes by itself after `duration` ms (default 5000; `Infinity` keeps it until it is
 *   closed). The timer pauses while the toast is hovered, focused or being swiped, and resumes
 *   with the time that was left.
 * - `close(id)` marks the toast closed (`open: false`, so the exit transition can run) and
 *   removes it 200 ms later. Closing an id that is not held does nothing: Refine closes keys it
 *   never opened.
 * - Errors: a type other than "foreground"/"background", an action without
 *   `altText`, and a region label that is not a non-empty string all throw.
 *
 * Swipe to dismiss follows reka-ui's toast, which the original portal used: a swipe starts
 * once the pointer has moved more than 10 px (touch) or 2 px (mouse, pen) to the right, so a
 * click that wobbles is not a swipe, and it dismisses on release once it is 50 px long
 * (reka-ui's default `swipeThreshold`).
 *
 * The queue knows nothing about React; `Node` is the type of title, description and icon.
 */

export const TOAST_LIMIT = 5;
export const TOAST_DEFAULT_DURATION_MS = 5000;
export const TOAST_REMOVE_DELAY_MS = 200;
export const TOAST_HOTKEY = "F8";
export const TOAST_GAP_PX = 16;
export const TOAST_DEFAULT_LABEL = "Notification";
export const TOAST_SWIPE_DIRECTION = "right";
export const TOAST_SWIPE_START_TOUCH_PX = 10;
export const TOAST_SWIPE_START_OTHER_PX = 2;
export const TOAST_SWIPE_DISMISS_PX = 50;

export type ToastType = "foreground" | "background";
export type ToastColor = "primary" | "success" | "info" | "warning" | "error" | "neutral";
export type ToastPauseReason = "hover" | "focus" | "swipe";

export interface ToastAction {
  label: string;
  /** What a screen reader announces instead of the label; required. */
  altText: string;
  onClick: () => void;
}

export interface ToastAvatar {
  src: string;
  alt: string;
}

export interface ToastInput<Node = string> {
  id?: string;
  title?: Node;
  description?: Node;
  icon?: Node;
  avatar?: ToastAvatar;
  color?: ToastColor;
  actions?: readonly ToastAction[];
  /** Show the close button (default true). */
  close?: boolean;
  /** Show the bar of time left (default true; never shown for an endless toast). */
  progress?: boolean;
  duration?: number;
  /** "foreground" toasts are announced at once, "background" ones politely (default foreground). */
  type?: ToastType;
}

export interface Toast<Node = string> {
  readonly id: string;
  readonly open: boolean;
  readonly title?: Node;
  readonly description?: Node;
  readonly icon?: Node;
  readonly avatar?: ToastAvatar;
  readonly color: ToastColor;
  readonly actions: readonly ToastAction[];
  readonly close: boolean;
  readonly progress: boolean;
  readonly duration: number;
  readonly type: ToastType;
  readonly paused: boolean;
  /** Time left when the toast was last paused or (re)started. */
  readonly remaining: number;
  /** Changes each time the timer restarts, so a progress bar knows to start over. */
  readonly revision: number;
}

/** The region label, defaulting to "Notification"; anything but a non-empty string throws. */
export function regionLabel(label: unknown = TOAST_DEFAULT_LABEL): string {
  if (typeof label !== "string" || label.trim() === "") {
    throw new TypeError("Invalid toast region label: expected a non-empty string.");
  }
  return label;
}

function validate<Node>(input: ToastInput<Node>): void {
  if (input.type !== undefined && input.type !== "foreground" && input.type !== "background") {
    throw new TypeError(`Invalid toast type "${String(input.type)}": expected "foreground" or "background".`);
  }
  for (const action of input.actions ?? []) {
    if (typeof action.altText !== "string" || action.altText.trim() === "") {
      throw new TypeError(`Toast action "${action.label}" needs alternative text (altText).`);
    }
  }
  const duration = input.duration;
  if (duration !== undefined && !(duration > 0)) {
    throw new RangeError(`Invalid toast duration ${String(duration)}: expected a positive number of ms or Infinity.`);
  }
}

interface Timer {
  /** Undefined while paused. */
  handle: ReturnType<typeof setTimeout> | undefined;
  startedAt: number;
}

export class ToastQueue<Node = string> {
  #toasts: readonly Toast<Node>[] = [];
  /** Only toasts with a finite duration have a timer. */
  readonly #timers = new Map<string, Timer>();
  /**
   * Why each toast is paused. Kept for every open toast, endless ones included, so a toast that
   * is replaced under the pointer (Refine's countdown turning into "Saved") starts paused.
   */
  readonly #pauses = new Map<string, Set<ToastPauseReason>>();
  readonly #removals = new Map<string, ReturnType<typeof setTimeout>>();
  readonly #listeners = new Set<() => void>();
  #nextId = 0;
  #nextRevision = 0;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** Oldest first. */
  readonly getSnapshot = (): readonly Toast<Node>[] => this.#toasts;

  add(input: ToastInput<Node>): string {
    validate(input);
    const id = input.id ?? `toast-${(this.#nextId += 1)}`;
    const duration = input.duration ?? TOAST_DEFAULT_DURATION_MS;
    const held = this.#get(id);
    const reasons = held?.open ? (this.#pauses.get(id) ?? new Set<ToastPauseReason>()) : new Set<ToastPauseReason>();
    const finite = Number.isFinite(duration);
    const toast: Toast<Node> = {
      id,
      open: true,
      title: input.title,
      description: input.description,
      icon: input.icon,
      avatar: input.avatar,
      color: input.color ?? "primary",
      actions: input.actions ?? [],
      close: input.close ?? true,
      progress: (input.progress ?? true) && finite,
      duration,
      type: input.type ?? "foreground",
      paused: finite && reasons.size > 0,
      remaining: duration,
      revision: (this.#nextRevision += 1),
    };
    this.#forget(id);
    const next = held
      ? this.#toasts.map((candidate) => (candidate.id === id ? toast : candidate))
      : [...this.#toasts, toast];
    for (const dropped of next.slice(0, Math.max(0, next.length - TOAST_LIMIT))) this.#forget(dropped.id);
    this.#toasts = next.slice(-TOAST_LIMIT);
    this.#pauses.set(id, reasons);
    if (finite) {
      const timer: Timer = { handle: undefined, startedAt: 0 };
      this.#timers.set(id, timer);
      if (!toast.paused) this.#arm(id, timer, duration);
    }
    this.#emit();
    return id;
  }

  close(id: string): void {
    const toast = this.#get(id);
    if (!toast?.open) return;
    this.#forget(id);
    this.#update(id, { open: false, paused: false });
    this.#removals.set(
      id,
      setTimeout(() => {
        this.#removals.delete(id);
        this.#toasts = this.#toasts.filter((candidate) => candidate.id !== id);
        this.#emit();
      }, TOAST_REMOVE_DELAY_MS),
    );
  }

  pause(id: string, reason: ToastPauseReason): void {
    const reasons = this.#pauses.get(id);
    if (!reasons) return;
    reasons.add(reason);
    const timer = this.#timers.get(id);
    const toast = this.#get(id);
    if (!timer || timer.handle === undefined || !toast) return;
    clearTimeout(timer.handle);
    timer.handle = undefined;
    this.#update(id, { paused: true, remaining: Math.max(0, toast.remaining - (Date.now() - timer.startedAt)) });
  }

  resume(id: string, reason: ToastPauseReason): void {
    const reasons = this.#pauses.get(id);
    if (!reasons) return;
    reasons.delete(reason);
    const timer = this.#timers.get(id);
    const toast = this.#get(id);
    if (reasons.size > 0 || !timer || timer.handle !== undefined || !toast) return;
    this.#arm(id, timer, toast.remaining);
    this.#update(id, { paused: false });
  }

  /** Milliseconds before the toast closes by itself; `undefined` once it is closed or gone. */
  timeLeft(id: string): number | undefined {
    const toast = this.#get(id);
    if (!toast?.open) return undefined;
    const timer = this.#timers.get(id);
    if (!timer) return Infinity;
    return timer.handle === undefined ? toast.remaining : Math.max(0, toast.remaining - (Date.now() - timer.startedAt));
  }

  #arm(id: string, timer: Timer, delay: number): void {
    timer.startedAt = Date.now();
    timer.handle = setTimeout(() => this.close(id), delay);
  }

  /** Stops the timer and any pending removal of a toast, and forgets why it was paused. */
  #forget(id: string): void {
    const timer = this.#timers.get(id);
    if (timer?.handle !== undefined) clearTimeout(timer.handle);
    this.#timers.delete(id);
    this.#pauses.delete(id);
    const removal = this.#removals.get(id);
    if (removal !== undefined) clearTimeout(removal);
    this.#removals.delete(id);
  }

  #get(id: string): Toast<Node> | undefined {
    return this.#toasts.find((candidate) => candidate.id === id);
  }

  #update(id: string, patch: Partial<Pick<Toast<Node>, "open" | "paused" | "remaining">>): void {
    this.#toasts = this.#toasts.map((candidate) => (candidate.id === id ? { ...candidate, ...patch } : candidate));
    this.#emit();
  }

  #emit(): void {
    for (const listener of this.#listeners) listener();
  }
}

export interface SwipeState {
  readonly startX: number;
  readonly startY: number;
  readonly pointerType: string;
  /** Whether the movement has passed the start buffer and counts as a swipe. */
  readonly swiping: boolean;
  /** Distance to the right, never negative: the toast does not follow the pointer leftwards. */
  readonly delta: number;
}

export function swipeStartBuffer(pointerType: string): number {
  return pointerType === "touch" ? TOAST_SWIPE_START_TOUCH_PX : TOAST_SWIPE_START_OTHER_PX;
}

export function beginSwipe(x: number, y: number, pointerType: string): SwipeState {
  return { startX: x, startY: y, pointerType, swiping: false, delta: 0 };
}

export function moveSwipe(state: SwipeState, x: number, y: number): SwipeState {
  const dx = x - state.startX;
  const dy = y - state.startY;
  // A mostly vertical movement is a scroll, not a swipe.
  const swiping = state.swiping || (dx > swipeStartBuffer(state.pointerType) && dx > Math.abs(dy));
  return { ...state, swiping, delta: swiping ? Math.max(0, dx) : 0 };
}

/** What releasing the pointer does: dismiss the toast, snap it back, or nothing (not a swipe). */
export function endSwipe(state: SwipeState): "dismiss" | "cancel" | "none" {
  if (!state.swiping) return "none";
  return state.delta >= TOAST_SWIPE_DISMISS_PX ? "dismiss" : "cancel";
}
