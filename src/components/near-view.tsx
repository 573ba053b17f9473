import { type ReactNode, useEffect, useRef, useState } from "react";

/**
 * Renders `children` once its place comes within `margin` of the window (it stays rendered after),
 * `placeholder` until then: a part far down a page fetches its code and data when the reader gets
 * near it, not on a phone's first load. Without IntersectionObserver (the build's snapshots, an old
 * browser) the placeholder stays for the snapshot and the part renders at once in a browser.
 */
export function NearView({
  children,
  placeholder,
  margin = "600px",
}: {
  children: ReactNode;
  placeholder: ReactNode;
  margin?: string;
}) {
  const [near, setNear] = useState(false);
  const anchor = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (near) return;
    if (typeof IntersectionObserver === "undefined" || !anchor.current) {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => entries.some((entry) => entry.isIntersecting) && setNear(true),
      { rootMargin: margin },
    );
    observer.observe(anchor.current);
    return () => observer.disconnect();
  }, [near, margin]);
  return near ? children : <div ref={anchor}>{placeholder}</div>;
}
