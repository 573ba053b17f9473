import type { BaseRecord } from "@refinedev/core";
import { createContext, useContext } from "react";
import type { Services } from "./services";
import { type Read, useRead, useSend } from "./use-request";

/** The app's services (src/providers/services.ts), for the pages of the public site, which load without Refine's hooks. */
export const ServicesContext = createContext<Services | null>(null);

export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error("useServices needs <ServicesContext.Provider>");
  return services;
}

/** Creates a `resource` record through the data provider; `pending` while a call is under way. */
export function useCreateRecord<T>(resource: string) {
  const { dataProvider } = useServices();
  return useSend(
    async (values: object) => (await dataProvider.create<T & BaseRecord>({ resource, variables: values })).data as T,
  );
}

/** A custom call through the data provider (`url` under /api/v1, as `apiRoutes` names it). */
export function useCustomCall() {
  const { dataProvider } = useServices();
  return useSend(
    async <T,>(method: "get" | "post", url: string, payload?: object) =>
      (await dataProvider.custom<T & BaseRecord>({ url, method, payload })).data as T,
  );
}

/** Reads `url` (under /api/v1, as `apiRoutes` names it) through the data provider when the component mounts. */
export function useApiRead<T>(url: string): Read<T> {
  const { dataProvider } = useServices();
  return useRead(url, async () => (await dataProvider.custom<T & BaseRecord>({ url, method: "get" })).data as T);
}
