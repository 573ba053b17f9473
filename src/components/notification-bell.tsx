import { BellOutlined } from "@ant-design/icons";
import { Badge, theme } from "antd";
import { useInbox } from "../providers/inbox";
import { Link } from "./link";

/** The header's way to the notifications page, with the unread count kept live by the listen stream. */
export function NotificationBell() {
  const { token } = theme.useToken();
  const { unreadCount } = useInbox();
  const count = unreadCount ?? 0;
  return (
    <Link
      to="/notifications"
      aria-label={count > 0 ? `Notifications, ${count} unread` : "Notifications"}
      data-testid="notification-bell"
      style={{ display: "inline-flex", color: token.colorText }}
    >
      <Badge count={count} size="small" overflowCount={99}>
        <BellOutlined style={{ fontSize: 20, padding: 4 }} />
      </Badge>
    </Link>
  );
}
