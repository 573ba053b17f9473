import { useNotificationProvider } from "@refinedev/antd";
import "@refinedev/antd/dist/reset.css";
import { Refine } from "@refinedev/core";
import routerProvider, { DocumentTitleHandler, UnsavedChangesNotifier } from "@refinedev/react-router";
import { App as AntdApp, ConfigProvider } from "antd";
import type { ReactNode } from "react";
import { BrowserRouter, Routes } from "react-router";
import { DocsLayout } from "./components/layouts/docs-layout";
import { LandingLayout } from "./components/layouts/landing-layout";
import { PortalLayout } from "./components/layouts/portal-layout";
import { SessionContext } from "./providers/session-context";
import type { Services } from "./providers/services";
import { refineResources, renderRoutes } from "./resources";
import type { LayoutName } from "./resources/types";

const layouts: Record<LayoutName, (children: ReactNode) => ReactNode> = {
  landing: (children) => <LandingLayout>{children}</LandingLayout>,
  portal: (children) => <PortalLayout>{children}</PortalLayout>,
  docs: (children) => <DocsLayout>{children}</DocsLayout>,
  none: (children) => children,
};

const resources = refineResources();

export function App({ services }: { services: Services }) {
  return (
    <BrowserRouter>
      <ConfigProvider theme={{ token: { colorPrimary: "#C7031E" } }}>
        <AntdApp>
          <SessionContext.Provider value={services.session}>
            <Refine
              dataProvider={services.dataProvider}
              authProvider={services.authProvider}
              accessControlProvider={services.accessControlProvider}
              routerProvider={routerProvider}
              notificationProvider={useNotificationProvider}
              resources={resources}
              options={{
                disableTelemetry: true,
                syncWithLocation: true,
                warnWhenUnsavedChanges: true,
                reactQuery: { clientConfig: services.queryClient },
                title: { text: "Tuning Portal" },
              }}
            >
              <Routes>{renderRoutes(layouts)}</Routes>
              <UnsavedChangesNotifier />
              <DocumentTitleHandler handler={({ resource }) => `${resource?.meta?.label ?? "Tuning Portal"} · Tuning Portal`} />
            </Refine>
          </SessionContext.Provider>
        </AntdApp>
      </ConfigProvider>
    </BrowserRouter>
  );
}
