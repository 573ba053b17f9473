import "@refinedev/antd/dist/reset.css";
import { Refine } from "@refinedev/core";
import routerProvider, { DocumentTitleHandler, UnsavedChangesNotifier } from "@refinedev/react-router";
import { App as AntdApp, ConfigProvider, Empty } from "antd";
import type { ReactNode } from "react";
import { BrowserRouter, Routes } from "react-router";
import { ColourModeSwitch, useColourMode } from "./components/colour-mode-switch";
import { DialogHost } from "./components/dialog-host";
import { DocsLayout } from "./components/layouts/docs-layout";
import { LandingLayout } from "./components/layouts/landing-layout";
import { PortalLayout } from "./components/layouts/portal-layout";
import { PageRedirect } from "./components/page-redirect";
import { Toaster } from "./components/toaster";
import { emptyLabel } from "./lib/labels";
import { antdTheme } from "./lib/theme";
import { notificationProvider } from "./providers/notification-provider";
import type { Services } from "./providers/services";
import { SessionContext } from "./providers/session-context";
import { refineResources, renderRoutes } from "./resources";
import type { LayoutName } from "./resources/types";

const switchInHeader = <ColourModeSwitch />;
const layouts: Record<LayoutName, (children: ReactNode) => ReactNode> = {
  landing: (children) => <LandingLayout headerExtra={switchInHeader}>{children}</LandingLayout>,
  portal: (children) => <PortalLayout headerExtra={switchInHeader}>{children}</PortalLayout>,
  docs: (children) => <DocsLayout headerExtra={switchInHeader}>{children}</DocsLayout>,
  none: (children) => children,
};

const resources = refineResources();

export function App({ services }: { services: Services }) {
  const { resolved } = useColourMode();
  return (
    <BrowserRouter>
      <ConfigProvider theme={antdTheme(resolved)} renderEmpty={(name) => <Empty description={emptyLabel(name)} />}>
        <AntdApp>
          <SessionContext.Provider value={services.session}>
            <Refine
              dataProvider={services.dataProvider}
              authProvider={services.authProvider}
              accessControlProvider={services.accessControlProvider}
              routerProvider={routerProvider}
              notificationProvider={notificationProvider}
              resources={resources}
              options={{
                disableTelemetry: true,
                syncWithLocation: true,
                warnWhenUnsavedChanges: true,
                reactQuery: { clientConfig: services.queryClient },
                title: { text: "Tuning Portal" },
              }}
            >
              <PageRedirect>
                <Routes>{renderRoutes(layouts)}</Routes>
              </PageRedirect>
              {/* Above every layout, so dialogs and toasts survive page switches. */}
              <DialogHost />
              <Toaster />
              <UnsavedChangesNotifier />
              <DocumentTitleHandler handler={({ resource }) => `${resource?.meta?.label ?? "Tuning Portal"} · Tuning Portal`} />
            </Refine>
          </SessionContext.Provider>
        </AntdApp>
      </ConfigProvider>
    </BrowserRouter>
  );
}
