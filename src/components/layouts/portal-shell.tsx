import { BellOutlined, MenuOutlined, UserOutlined } from "@ant-design/icons";
import { Avatar, Button, Card, Flex, Layout, theme } from "antd";
import { BrandMark } from "../brand";
import { ColourModeSwitch } from "../colour-mode-switch";
import { PageHeading } from "../page-heading";
import { portalHeaderStyle } from "./portal-header-style";

/**
 * The portal's frame as the build draws it for a page load on a portal page (scripts/lib/prerender.ts):
 * the header, the side menu's place and the page's title over a loading card, which someone signed in
 * sees at once while the portal's code (half a megabyte on a phone's connection) arrives; the app
 * replaces it when its own page is on screen (src/lib/snapshot.ts). Drawn without Refine, whose frame
 * needs the user and the menu of their role; one drawing serves every width, so where the real frame
 * changes with antd's breakpoints (portal-layout.tsx: the side menu from `lg`, the brand in the header
 * from `sm` to `lg`, the content's padding from `sm`) `PORTAL_SHELL_STYLE` says so by media queries.
 */
export function PortalShell({ title }: { title: string }) {
  const { token } = theme.useToken();
  return (
    <div className="portal-shell">
      <Layout style={{ minHeight: "100vh" }} hasSider>
        <Layout.Sider
          width={200}
          className="portal-shell-sider"
          style={{ backgroundColor: token.colorBgContainer, borderRight: `1px solid ${token.colorBgElevated}` }}
        >
          <div
            style={{
              width: 200,
              padding: "0 16px",
              display: "flex",
              alignItems: "center",
              height: 64,
              backgroundColor: token.colorBgElevated,
              fontSize: 14,
            }}
          >
            <BrandMark to="/dashboard" />
          </div>
        </Layout.Sider>
        <Layout>
          <Layout.Header className="portal-shell-header" style={portalHeaderStyle(token)}>
            <Flex
              gap={8}
              align="center"
              className="portal-shell-narrow"
              style={{ marginInlineEnd: "auto", minWidth: 0 }}
            >
              <Button type="text" icon={<MenuOutlined />} aria-label="Menu" />
              <span className="portal-shell-header-brand">
                <BrandMark to="/dashboard" />
              </span>
            </Flex>
            <Flex align="center" className="portal-shell-tools">
              <ColourModeSwitch />
              <Button type="text" icon={<BellOutlined />} aria-label="Notifications" />
              <Avatar icon={<UserOutlined />} alt="" />
            </Flex>
          </Layout.Header>
          <Layout.Content>
            <div className="portal-shell-content" style={{ minHeight: 360 }}>
              <Flex vertical gap={16}>
                <PageHeading title={title} />
                <Card loading />
              </Flex>
            </div>
          </Layout.Content>
        </Layout>
      </Layout>
    </div>
  );
}

/** The drawing's rules by width, as the portal's frame changes at antd's `sm` (576 px) and `lg` (992 px). */
export const PORTAL_SHELL_STYLE = [
  ".portal-shell .portal-shell-header { padding: 0 12px }",
  ".portal-shell .portal-shell-content { padding: 12px }",
  ".portal-shell .portal-shell-tools { gap: 8px }",
  ".portal-shell .portal-shell-sider, .portal-shell .portal-shell-header-brand { display: none }",
  "@media (min-width: 576px) { .portal-shell .portal-shell-header { padding: 0 24px } .portal-shell .portal-shell-content { padding: 24px } .portal-shell .portal-shell-header-brand { display: inline-flex } .portal-shell .portal-shell-tools { gap: 16px } }",
  "@media (min-width: 992px) { .portal-shell .portal-shell-sider { display: block } .portal-shell .portal-shell-narrow { display: none } }",
].join("\n");
