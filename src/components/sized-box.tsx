import { type CSSProperties, type ReactNode, useEffect, useRef, useState } from "react";

/**
 * A box that renders its children only once it has a size. recharts' ResponsiveContainer measures
 * its parent and warns ("The width(0) and height(0) of chart should be greater than 0") when it
 * is drawn inside something not laid out yet, such as a drawer while it opens.
 */
export function SizedBox({ style, children }: { style: CSSProperties; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [sized, setSized] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || sized) return;
    const check = () => {
      const { width, height } = element.getBoundingClientRect();
      if (width > 0 && height > 0) setSized(true);
    };
    check();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(check);
    observer.observe(element);
    return () => observer.disconnect();
  }, [sized]);
  return (
    <div ref={ref} style={style}>
      {sized ? children : null}
    </div>
  );
}
