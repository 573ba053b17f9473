import { type ComponentType, lazy } from "react";
import type { PageComponent } from "./types";

/**
 * A route page whose code is a separate chunk: `lazyPage(() => import("./list"), "UsersList")`.
 * The chunk is fetched on the first visit, or earlier by `preload()` (links call it when visible
 * or hovered, src/components/link.tsx); both share one download. A failed download is forgotten
 * so a later preload or visit tries again; a visit that fails reaches the app's error boundary,
 * which reloads once through the reload guard.
 */
export function lazyPage<Module extends Record<Name, ComponentType>, Name extends keyof Module>(
  load: () => Promise<Module>,
  name: Name,
): PageComponent {
  let loading: Promise<{ default: ComponentType }> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (module) => ({ default: module[name] }),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  return Object.assign(lazy(preload), { preload });
}
