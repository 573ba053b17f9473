import { LogoutOutlined, MenuOutlined, UserOutlined } from "@ant-design/icons";
import { ThemedLayout, ThemedSider, useThemedLayoutContext } from "@refinedev/antd";
import { useGetIdentity, useLogout } from "@refinedev/core";
import { Avatar, Button, Dropdown, Flex, Layout, Menu, Typography, theme } from "antd";
import { createContext, type ReactNode, useContext } from "react";
import { useSessionState } from "../../providers/session-context";
import { BrandMark } from "../brand";
import { Link } from "../link";
import { LandingLayout } from "./landing-layout";
import { portalHeaderStyle } from "./portal-header-style";
import { useScreens } from "./snapshot-screen";
import "./portal-layout.css";
import { type DialogContentProps, useDialogs } from "../dialogs";
import { NotificationBell } from "../notification-bell";

interface Identity {
  name: string | null;
  email: string | null;
  avatar?: string;
}

/** Signing out ends the work in every kept page, so it asks first and takes only a button for an answer. */
function SignOutConfirmation({ close }: DialogContentProps) {
  const { mutate: logout } = useLogout();
  return (
    <Flex vertical gap={16}>
      <Typography.Paragraph style={{ margin: 0 }}>
        Unsaved changes on open pages are lost, and you need to sign in again.
      </Typography.Paragraph>
      <Flex gap={8} justify="end">
        <Button onClick={close}>Stay signed in</Button>
        <Button
          type="primary"
          onClick={() => {
            close();
            logout();
          }}
        >
          Sign out
        </Button>
      </Flex>
    </Flex>
  );
}

function useAskToSignOut() {
  const dialogs = useDialogs();
  return () =>
    dialogs.open(SignOutConfirmation, { header: "Sign out?", icon: { name: "question" }, barrierDismissible: false });
}

/**
 * Refine's sider, with its sign-out asking first like the user menu's. Fixed, so a menu longer
 * than the window (an admin's) scrolls inside it instead of making every page scroll.
 */
function PortalSider(props: Parameters<typeof ThemedSider>[0]) {
  const askToSignOut = useAskToSignOut();
  return (
    <ThemedSider
      {...props}
      fixed
      render={({ items, logout }) => (
        <>
          {items}
          {logout && (
            <Menu.Item key="sign-out" icon={<LogoutOutlined />} onClick={askToSignOut}>
              Sign out
            </Menu.Item>
          )}
        </>
      )}
    />
  );
}

/** What the app puts beside the user menu; a context so the header keeps one component identity. */
const HeaderExtra = createContext<ReactNode>(null);

// ThemedLayout takes Header and Title as component types: defined here, not inline, so a render of
// the layout does not remount them (a remount closed an open user menu under the user's pointer).
function PortalHeader() {
  const headerExtra = useContext(HeaderExtra);
  const { token } = theme.useToken();
  const { data: identity } = useGetIdentity<Identity>();
  const askToSignOut = useAskToSignOut();
  const { setMobileSiderOpen } = useThemedLayoutContext();
  // Below 992 px Refine's sider becomes a drawer; its own floating button covered page titles, so the header opens it.
  const screens = useScreens();
  const narrow = screens.lg === false;
  const phone = screens.sm === false;
  return (
    <Layout.Header style={{ ...portalHeaderStyle(token), padding: phone ? "0 12px" : "0 24px" }}>
      {narrow && (
        <Flex gap={8} align="center" style={{ marginInlineEnd: "auto", minWidth: 0 }}>
          <Button type="text" icon={<MenuOutlined />} aria-label="Menu" onClick={() => setMobileSiderOpen(true)} />
          {!phone && <BrandMark to="/dashboard" />}
        </Flex>
      )}
      <Flex gap={phone ? 8 : 16} align="center">
        {headerExtra}
        <NotificationBell />
        <Dropdown
          trigger={["click"]}
          // Inside the sticky header, so the open menu stays under its button while the page scrolls.
          getPopupContainer={(button) => button.parentElement ?? document.body}
          menu={{
            items: [
              { key: "profile", icon: <UserOutlined />, label: <Link to="/profile">Profile</Link> },
              { type: "divider" },
              {
                key: "logout",
                icon: <LogoutOutlined />,
                label: "Sign out",
                onClick: askToSignOut,
              },
            ],
          }}
        >
          <Flex gap={8} align="center" style={{ cursor: "pointer" }} data-testid="user-menu" role="button" tabIndex={0}>
            <Avatar src={identity?.avatar} icon={<UserOutlined />} alt="" />
            {/* On a phone the avatar alone: the name would push the header wider than the window. */}
            {!phone && <Typography.Text>{identity?.name ?? identity?.email ?? ""}</Typography.Text>}
          </Flex>
        </Dropdown>
      </Flex>
    </Layout.Header>
  );
}

function PortalTitle({ collapsed }: { collapsed: boolean }) {
  return collapsed ? <img src="/favicon.svg" alt="Tuning Portal" width={28} /> : <BrandMark to="/dashboard" />;
}

/**
 * The signed-in portal: menu of the resources this user may open, header with the user menu.
 * A public portal page (the dealer directory) opened signed out shows in the public site's layout:
 * a visitor has no notifications, no menu of their own and nothing to sign out of.
 */
export function PortalLayout({ children, headerExtra }: { children: ReactNode; headerExtra?: ReactNode }) {
  const { ready, user } = useSessionState();
  if (ready && !user) return <LandingLayout headerExtra={headerExtra}>{children}</LandingLayout>;
  return (
    <HeaderExtra.Provider value={headerExtra}>
      <div className="portal-shell">
        <ThemedLayout Header={PortalHeader} Sider={PortalSider} Title={PortalTitle}>
          {children}
        </ThemedLayout>
      </div>
    </HeaderExtra.Provider>
  );
}
