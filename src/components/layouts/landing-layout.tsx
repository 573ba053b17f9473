import { MenuOutlined } from "@ant-design/icons";
import { Button, Flex, Layout, Menu, theme } from "antd";
import { lazy, type ReactNode, Suspense, useState } from "react";
import { useLocation } from "react-router";
import { useSessionState } from "../../providers/session-context";
import { BrandMark, PRODUCT_NAME } from "../brand";
import { Link } from "../link";
import { Text } from "../text";
import { useNarrowScreen } from "./snapshot-screen";

const navigation = [
  { path: "/", label: "Home" },
  { path: "/download-app", label: "The app" },
  { path: "/docs/getting-started", label: "Docs" },
  { path: "/faqs", label: "FAQs" },
  { path: "/dealer-account-request", label: "For dealers" },
  { path: "/contact-us", label: "Contact" },
];

// Only narrow screens open the menu drawer: its code (antd's Drawer) is fetched when the menu
// button is pressed (pointer down comes a moment before the click) or focused.
const loadDrawer = () => import("antd/es/drawer");
const Drawer = lazy(loadDrawer);

const footerLinks = [
  { path: "/about-us", label: "About us" },
  { path: "/contact-us", label: "Contact us" },
  { path: "/demo-request", label: "Request a demo" },
  { path: "/legal/terms", label: "Terms" },
  { path: "/legal/privacy", label: "Privacy" },
];

/** Public pages: header with navigation and sign-in, footer with the legal links. */
export function LandingLayout({ children, headerExtra }: { children: ReactNode; headerExtra?: ReactNode }) {
  const { token } = theme.useToken();
  const { user } = useSessionState();
  const { pathname } = useLocation();
  // Below 768 px the links do not fit beside the brand, the colour switch and sign-in: they move into a drawer.
  const narrow = useNarrowScreen();
  const [menuOpen, setMenuOpen] = useState(false);
  // The drawer is mounted from its first opening on, so it can animate closed.
  const [menuOpened, setMenuOpened] = useState(false);
  if (menuOpen && !menuOpened) setMenuOpened(true);
  const menuItems = navigation.map((item) => ({ key: item.path, label: <Link to={item.path}>{item.label}</Link> }));
  return (
    <Layout style={{ minHeight: "100vh" }}>
      <Layout.Header
        // Gaps shrink on narrow screens so brand, menu, colour switch and sign-in fit in 320 px.
        style={{
          background: token.colorBgElevated,
          display: "flex",
          alignItems: "center",
          gap: "clamp(8px, 2vw, 24px)",
          padding: "0 clamp(12px, 4vw, 48px)",
        }}
      >
        {narrow && (
          <Button
            type="text"
            icon={<MenuOutlined />}
            aria-label="Menu"
            aria-expanded={menuOpen}
            onPointerDown={() => void loadDrawer()}
            onFocus={() => void loadDrawer()}
            onClick={() => setMenuOpen(true)}
          />
        )}
        <BrandMark />
        {narrow ? (
          menuOpened && (
            <Suspense fallback={null}>
              <Drawer
                title="Menu"
                placement="left"
                width={260}
                open={menuOpen}
                onClose={() => setMenuOpen(false)}
                styles={{ body: { padding: 0 } }}
              >
                <Menu
                  mode="inline"
                  selectedKeys={[pathname]}
                  style={{ borderInlineEnd: "none" }}
                  items={menuItems}
                  onClick={() => setMenuOpen(false)}
                />
              </Drawer>
            </Suspense>
          )
        ) : (
          <Menu
            mode="horizontal"
            selectedKeys={[pathname]}
            style={{ flex: 1, minWidth: 0, borderBottom: "none", background: "transparent" }}
            items={menuItems}
          />
        )}
        <Flex gap={4} align="center" style={{ marginInlineStart: "auto" }}>
          {headerExtra}
          {user ? (
            <Link to="/dashboard" style={{ display: "inline-flex" }}>
              <Button type="primary">Open portal</Button>
            </Link>
          ) : (
            // The link takes its button's 32 px height (inline, it measured 22 px: too small a touch target).
            <Link to="/login" style={{ display: "inline-flex" }}>
              <Button type="primary">Sign in</Button>
            </Link>
          )}
        </Flex>
      </Layout.Header>
      {/* At least a screen high below the 64 px header, so the footer starts below the fold and does
          not jump down when the page's content arrives (Lighthouse counted that shift as CLS 0.19). */}
      <Layout.Content
        style={{
          padding: "32px clamp(12px, 4vw, 48px)",
          maxWidth: 1280,
          width: "100%",
          margin: "0 auto",
          minHeight: "calc(100vh - 64px)",
        }}
      >
        {children}
      </Layout.Content>
      <Layout.Footer style={{ textAlign: "center" }}>
        <Flex gap="0 20px" justify="center" wrap style={{ marginBottom: 8 }}>
          {footerLinks.map((link) => (
            // 32 px high: a thumb's target (Lighthouse's touch-target audit asks for 24 px and spacing).
            <Link key={link.path} to={link.path} style={{ display: "inline-block", padding: "5px 0" }}>
              {link.label}
            </Link>
          ))}
        </Flex>
        <Text type="secondary">
          © {new Date().getFullYear()} {PRODUCT_NAME}. Modifying engine software can affect emissions, warranty and road
          legality.
        </Text>
      </Layout.Footer>
    </Layout>
  );
}
