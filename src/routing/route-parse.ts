/**
 * Refine's `parse` for react-router (its router provider's contract: the route's resource, action,
 * id and query), with the resource matched once per path instead of once per hook. Refine's own
 * binding matches in a memo of each hook that parses the route: a portal page mounts about a hundred
 * (every data hook parses it, some several times), and each match walks every route of every
 * resource, a noticeable share of a page load (more on a phone) in the tasks that
 * render a page and its data. The answer is the binding's, field for field (tests/unit/src/routing/route-parse.test.tsx).
 */
import {
  matchResourceFromRoute,
  type ParseFunction,
  type ParseResponse,
  QS_PARSE_DEPTH,
  ResourceContext,
} from "@refinedev/core";
import qs from "qs";
import { useCallback, useContext } from "react";
import { matchPath, useLocation, useParams } from "react-router";

type Resources = Parameters<typeof matchResourceFromRoute>[1];
type Match = ReturnType<typeof matchResourceFromRoute>;

/** Per list of resources (Refine keeps one), the match of each path asked for. */
const matches = new WeakMap<Resources, Map<string, Match>>();

export function matchRoute(pathname: string, resources: Resources): Match {
  let byPath = matches.get(resources);
  if (!byPath) matches.set(resources, (byPath = new Map()));
  let match = byPath.get(pathname);
  if (!match) byPath.set(pathname, (match = matchResourceFromRoute(pathname, resources)));
  return match;
}

/** A number where the query's text is exactly one ("2", not "02"): page numbers and sizes. */
function numberIfExact(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const number = Number(value);
  return `${number}` === value ? number : value;
}

export function useRouteParse(): ParseFunction {
  const routeParams = useParams();
  const { pathname, search } = useLocation();
  const { resources } = useContext(ResourceContext);
  const { resource, action, matchedRoute } = matchRoute(pathname, resources);
  // Outside a <Route> (the layout, the menu) react-router has no params: the matched route gives them.
  const params =
    Object.keys(routeParams).length === 0 && matchedRoute
      ? (matchPath(matchedRoute, pathname)?.params ?? {})
      : routeParams;

  return useCallback((): ParseResponse => {
    const combined: Record<string, unknown> = {
      ...params,
      ...qs.parse(search, { ignoreQueryPrefix: true, depth: QS_PARSE_DEPTH }),
    };
    return {
      ...(resource && { resource }),
      ...(action && { action }),
      ...(params.id && { id: decodeURIComponent(params.id) }),
      pathname,
      params: {
        ...combined,
        currentPage: numberIfExact(combined.currentPage) as number | undefined,
        pageSize: numberIfExact(combined.pageSize) as number | undefined,
        to: combined.to ? decodeURIComponent(combined.to as string) : undefined,
      },
    };
  }, [pathname, search, params, resource, action]);
}
