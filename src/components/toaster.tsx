/**
 * Toaster: the toast region at the top right of the window.
 *
 * Mount once, inside antd's <ConfigProvider> so toasts follow the theme:
 *   <Toaster />                      // region label "Notification"
 *   <Toaster label="Notifications" /> // any non-empty string; anything else throws
 * Show toasts through Refine (`useNotification().open(...)`, backed by
 * src/providers/notification-provider.ts) or directly:
 *   toasts.add({ title: "Saved", color: "success" });
 *
 * What it does: toasts stack newest first with a 16 px gap; each shows a bar of the time left;
 * its timer pauses while the pointer is over it or focus is inside it; a swipe to the right
 * dismisses it; F8 moves focus to the region so keyboard users can reach the toasts' buttons.
 * Closed toasts fade out for the 200 ms the queue keeps them. Queue rules and numbers live in
 * src/lib/toast-queue.ts.
 *
 * Screen readers: a live region inserted together with its text is often not announced, so the
 * region keeps two hidden live regions from the start and copies the newest toast of each type
 * into them: "foreground" toasts into an assertive one, "background" toasts into a polite one.
 */
import {
  CheckCircleFilled,
  CloseCircleFilled,
  CloseOutlined,
  ExclamationCircleFilled,
  InfoCircleFilled,
} from "@ant-design/icons";
import { Button, theme } from "antd";
import {
  type CSSProperties,
  type FocusEvent,
  type PointerEvent,
  type ReactNode,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";

import { labels } from "../lib/labels";
import {
  beginSwipe,
  endSwipe,
  moveSwipe,
  regionLabel,
  type SwipeState,
  TOAST_GAP_PX,
  TOAST_HOTKEY,
  TOAST_REMOVE_DELAY_MS,
  type Toast,
  type ToastColor,
} from "../lib/toast-queue";
import { toasts } from "../providers/toasts";

export { toasts };

/** antd's own notifications sit at 2050: above modals (1000) so a toast is never hidden. */
const TOASTER_Z_INDEX = 2050;
const TOAST_WIDTH_PX = 384;
const PROGRESS_KEYFRAMES = "tuning-toast-time-left";
/** antd's default avatar size. */
const AVATAR_PX = 32;

export interface ToasterProps {
  /** The region's accessible name; default "Notification". */
  label?: string;
}

const HEADER_CLEARANCE_PX = 64;

export function Toaster({ label }: ToasterProps) {
  const name = regionLabel(label);
  const items = useSyncExternalStore(toasts.subscribe, toasts.getSnapshot, toasts.getSnapshot);
  const regionRef = useRef<HTMLElement>(null);
  const newest = (type: Toast["type"]) => items.findLast((toast) => toast.open && toast.type === type);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== TOAST_HOTKEY) return;
      event.preventDefault();
      regionRef.current?.focus();
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);

  return (
    <section
      ref={regionRef}
      aria-label={name}
      tabIndex={-1}
      style={{
        position: "fixed",
        // Below the header (the portal's is 64 px, a full-screen page's 48): a toast over the header's
        // buttons hid the log page's Share button for as long as "Log uploaded" showed.
        top: HEADER_CLEARANCE_PX + TOAST_GAP_PX,
        right: TOAST_GAP_PX,
        zIndex: TOASTER_Z_INDEX,
        width: TOAST_WIDTH_PX,
        maxWidth: `calc(100vw - ${2 * TOAST_GAP_PX}px)`,
        // The empty area of the region must not swallow clicks meant for the page below.
        pointerEvents: "none",
        outline: "none",
      }}
    >
      <style>{`@keyframes ${PROGRESS_KEYFRAMES}{from{transform:scaleX(1)}to{transform:scaleX(0)}}`}</style>
      <Announcer politeness="assertive" toast={newest("foreground")} />
      <Announcer politeness="polite" toast={newest("background")} />
      <ol
        style={{
          display: "flex",
          flexDirection: "column",
          gap: TOAST_GAP_PX,
          listStyle: "none",
          margin: 0,
          padding: 0,
        }}
      >
        {items.toReversed().map((toast) => (
          <ToastItem key={toast.id} toast={toast} />
        ))}
      </ol>
    </section>
  );
}

const VISUALLY_HIDDEN: CSSProperties = {
  position: "absolute",
  width: 1,
  height: 1,
  margin: -1,
  padding: 0,
  border: 0,
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  whiteSpace: "nowrap",
};

function Announcer({ politeness, toast }: { politeness: "assertive" | "polite"; toast?: Toast<ReactNode> }) {
  return (
    <div aria-live={politeness} aria-atomic="true" style={VISUALLY_HIDDEN}>
      {toast && (
        <>
          {toast.title} {toast.description}
        </>
      )}
    </div>
  );
}

const DEFAULT_ICONS: Partial<Record<ToastColor, ReactNode>> = {
  success: <CheckCircleFilled />,
  info: <InfoCircleFilled />,
  warning: <ExclamationCircleFilled />,
  error: <CloseCircleFilled />,
};

function ToastItem({ toast }: { toast: Toast<ReactNode> }) {
  const { token } = theme.useToken();
  const [swipe, setSwipe] = useState<SwipeState | null>(null);
  const [swipedAway, setSwipedAway] = useState(false);
  const accent = accentColour(toast.color, token);
  const icon = toast.icon ?? DEFAULT_ICONS[toast.color];

  const onPointerDown = (event: PointerEvent<HTMLLIElement>) => {
    if (event.button !== 0) return;
    setSwipe(beginSwipe(event.clientX, event.clientY, event.pointerType));
  };
  const onPointerMove = (event: PointerEvent<HTMLLIElement>) => {
    if (!swipe) return;
    const next = moveSwipe(swipe, event.clientX, event.clientY);
    if (next.swiping && !swipe.swiping) {
      // Keep receiving moves when the pointer leaves the toast mid-swipe.
      event.currentTarget.setPointerCapture(event.pointerId);
      toasts.pause(toast.id, "swipe");
    }
    setSwipe(next);
  };
  const onPointerEnd = () => {
    if (!swipe) return;
    const outcome = endSwipe(swipe);
    setSwipe(null);
    if (outcome === "none") return;
    toasts.resume(toast.id, "swipe");
    if (outcome === "dismiss") {
      // Leave to the right while fading instead of sliding back first.
      setSwipedAway(true);
      toasts.close(toast.id);
    }
  };
  const onBlur = (event: FocusEvent<HTMLLIElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget)) toasts.resume(toast.id, "focus");
  };

  const style: CSSProperties = {
    position: "relative",
    overflow: "hidden",
    display: "flex",
    gap: token.marginSM,
    alignItems: "flex-start",
    padding: token.paddingMD,
    borderRadius: token.borderRadiusLG,
    background: token.colorBgElevated,
    boxShadow: token.boxShadowSecondary,
    pointerEvents: "auto",
    touchAction: "pan-y",
    opacity: toast.open ? 1 : 0,
    transform: swipe?.swiping ? `translateX(${swipe.delta}px)` : swipedAway ? "translateX(100%)" : undefined,
    transition: swipe?.swiping
      ? "none"
      : `opacity ${TOAST_REMOVE_DELAY_MS}ms ease, transform ${TOAST_REMOVE_DELAY_MS}ms ease`,
  };

  return (
    <li
      tabIndex={0}
      data-state={toast.open ? "open" : "closed"}
      style={style}
      onMouseEnter={() => toasts.pause(toast.id, "hover")}
      onMouseLeave={() => toasts.resume(toast.id, "hover")}
      onFocus={() => toasts.pause(toast.id, "focus")}
      onBlur={onBlur}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
    >
      {toast.avatar ? (
        // A plain round image, as antd's Avatar draws one: the toaster is on every page's first load,
        // and Avatar brings its group, popover and overflow code along.
        <img
          src={toast.avatar.src}
          alt={toast.avatar.alt}
          width={AVATAR_PX}
          height={AVATAR_PX}
          style={{ borderRadius: "50%", objectFit: "cover", flex: "none" }}
        />
      ) : icon ? (
        <span aria-hidden style={{ color: accent, fontSize: token.fontSizeLG, lineHeight: 1, paddingTop: 2 }}>
          {icon}
        </span>
      ) : null}
      <div style={{ flex: 1, minWidth: 0 }}>
        {toast.title !== undefined && (
          <div style={{ color: token.colorText, fontWeight: token.fontWeightStrong }}>{toast.title}</div>
        )}
        {toast.description !== undefined && <div style={{ color: token.colorTextSecondary }}>{toast.description}</div>}
        {toast.actions.length > 0 && (
          <div style={{ display: "flex", gap: token.marginXS, marginTop: token.marginXS }}>
            {toast.actions.map((action, index) => (
              <Button key={index} size="small" aria-label={action.altText} onClick={action.onClick}>
                {action.label}
              </Button>
            ))}
          </div>
        )}
      </div>
      {toast.close && (
        <Button
          type="text"
          size="small"
          aria-label={labels.close}
          icon={<CloseOutlined />}
          onClick={() => toasts.close(toast.id)}
        />
      )}
      {toast.progress && (
        <TimeLeftBar
          key={toast.revision}
          duration={toast.duration}
          remaining={toast.remaining}
          paused={toast.paused}
          colour={accent}
        />
      )}
    </li>
  );
}

/**
 * A CSS animation from full to empty over the toast's duration, paused with the timer. The
 * browser animates it, so React does not re-render every frame. The starting offset is read
 * once per timer start (the caller keys this by `revision`), because changing an animation's
 * delay later would move the bar.
 */
function TimeLeftBar({
  duration,
  remaining,
  paused,
  colour,
}: {
  duration: number;
  remaining: number;
  paused: boolean;
  colour: string;
}) {
  const [elapsed] = useState(() => duration - remaining);
  return (
    <div
      aria-hidden
      data-testid="toast-time-left"
      style={{
        position: "absolute",
        left: 0,
        right: 0,
        bottom: 0,
        height: 3,
        background: colour,
        transformOrigin: "left",
        animationName: PROGRESS_KEYFRAMES,
        animationDuration: `${duration}ms`,
        animationTimingFunction: "linear",
        animationDelay: `${-elapsed}ms`,
        animationFillMode: "forwards",
        animationPlayState: paused ? "paused" : "running",
      }}
    />
  );
}

function accentColour(colour: ToastColor, token: ReturnType<typeof theme.useToken>["token"]): string {
  switch (colour) {
    case "primary":
      return token.colorPrimary;
    case "success":
      return token.colorSuccess;
    case "info":
      return token.colorInfo;
    case "warning":
      return token.colorWarning;
    case "error":
      return token.colorError;
    case "neutral":
      return token.colorTextSecondary;
  }
}
