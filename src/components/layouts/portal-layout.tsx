import { LogoutOutlined, UserOutlined } from "@ant-design/icons";
import { ThemedLayout } from "@refinedev/antd";
import { useGetIdentity, useLogout } from "@refinedev/core";
import { Avatar, Button, Dropdown, Flex, Layout, Typography, theme } from "antd";
import type { ReactNode } from "react";
import { Link } from "../link";
import { BrandMark } from "../brand";
import { type DialogContentProps, useDialogs } from "../dialog-host";

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
      <Typography.Paragraph style={{ margin: 0 }}>Unsaved changes on open pages are lost, and you need to sign in again.</Typography.Paragraph>
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

function PortalHeader({ headerExtra }: { headerExtra?: ReactNode }) {
  const { token } = theme.useToken();
  const { data: identity } = useGetIdentity<Identity>();
  const dialogs = useDialogs();
  return (
    <Layout.Header
      style={{
        background: token.colorBgElevated,
        display: "flex",
        justifyContent: "flex-end",
        alignItems: "center",
        padding: "0 24px",
        height: 64,
        position: "sticky",
        top: 0,
        zIndex: 10,
        borderBottom: `1px solid ${token.colorBorderSecondary}`,
      }}
    >
      <Flex gap={16} align="center">
        {headerExtra}
        <Dropdown
          trigger={["click"]}
          menu={{
            items: [
              { key: "profile", icon: <UserOutlined />, label: <Link to="/profile">Profile</Link> },
              { type: "divider" },
              {
                key: "logout",
                icon: <LogoutOutlined />,
                label: "Sign out",
                onClick: () => dialogs.open(SignOutConfirmation, { header: "Sign out?", icon: { name: "question" }, barrierDismissible: false }),
              },
            ],
          }}
        >
          <Flex gap={8} align="center" style={{ cursor: "pointer" }} data-testid="user-menu" role="button" tabIndex={0}>
            <Avatar src={identity?.avatar} icon={<UserOutlined />} alt="" />
            <Typography.Text>{identity?.name ?? identity?.email ?? ""}</Typography.Text>
          </Flex>
        </Dropdown>
      </Flex>
    </Layout.Header>
  );
}

/** The signed-in portal: menu of the resources this user may open, header with the user menu. */
export function PortalLayout({ children, headerExtra }: { children: ReactNode; headerExtra?: ReactNode }) {
  return (
    <ThemedLayout
      Header={() => <PortalHeader headerExtra={headerExtra} />}
      Title={({ collapsed }) => (collapsed ? <img src="/favicon.svg" alt="Tuning Portal" width={28} /> : <BrandMark to="/dashboard" />)}
    >
      {children}
    </ThemedLayout>
  );
}
