import { Layout, Menu, theme } from "antd";
import type { ReactNode } from "react";
import { useLocation } from "react-router";
import { BrandMark } from "../brand";
import { Link } from "../link";

export const docsIndex = [
  { slug: "getting-started", title: "Getting started" },
  { slug: "connecting-a-vehicle", title: "Connecting a vehicle" },
  { slug: "flashing", title: "Flashing a tune" },
  { slug: "data-logs", title: "Data logs" },
  { slug: "for-dealers", title: "For dealers" },
];

/** Documentation: the list of documents at the side, the document in the middle. */
export function DocsLayout({ children, headerExtra }: { children: ReactNode; headerExtra?: ReactNode }) {
  const { token } = theme.useToken();
  const { pathname } = useLocation();
  return (
    <Layout style={{ minHeight: "100vh" }}>
      <Layout.Header
        style={{
          background: token.colorBgElevated,
          display: "flex",
          alignItems: "center",
          justifyContent: "space-between",
        }}
      >
        <BrandMark />
        {headerExtra}
      </Layout.Header>
      <Layout>
        <Layout.Sider breakpoint="md" collapsedWidth={0} width={240} style={{ background: token.colorBgContainer }}>
          <Menu
            mode="inline"
            selectedKeys={[pathname]}
            items={docsIndex.map((doc) => ({
              key: `/docs/${doc.slug}`,
              label: <Link to={`/docs/${doc.slug}`}>{doc.title}</Link>,
            }))}
          />
        </Layout.Sider>
        <Layout.Content style={{ padding: "24px clamp(12px, 4vw, 48px)", maxWidth: 960 }}>{children}</Layout.Content>
      </Layout>
    </Layout>
  );
}
