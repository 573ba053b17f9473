import { CheckOutlined } from "@ant-design/icons";
import { useCustomMutation, useInvalidate, useUpdate } from "@refinedev/core";
import { Badge, Button, Flex, Segmented, Table, Typography } from "antd";
import { useEffect, useRef } from "react";
import { notificationsPath } from "../../../contracts/listen-streams";
import type { MarkAllReadResult, Notification } from "../../../contracts/notifications";
import { Link } from "../../components/link";
import { EmptyState, PageFrame } from "../../components/page-frame";
import { useResourceTable } from "../../components/resource/use-resource-table";
import { useInbox } from "../../providers/inbox";
import { useSessionState } from "../../providers/session-context";

const RESOURCE = "notifications";
const UNREAD = [{ field: "unread", operator: "eq" as const, value: true }];

/** Lists follow the listen stream: a pushed notification or a reconnection reloads the page shown. */
function useLiveReload(revision: number) {
  const invalidate = useInvalidate();
  const seen = useRef(revision);
  useEffect(() => {
    if (seen.current === revision) return;
    seen.current = revision;
    void invalidate({ resource: RESOURCE, invalidates: ["list"] });
  }, [revision, invalidate]);
}

/** The title leads to what the notification is about; following it marks it read. */
function NotificationText({ notification, onOpen }: { notification: Notification; onOpen: () => void }) {
  const unread = notification.readAt === null;
  const title = <Typography.Text strong={unread}>{notification.title}</Typography.Text>;
  return (
    <Flex vertical gap={2}>
      <Flex gap={8} align="center">
        {unread && <Badge status="processing" aria-hidden />}
        {notification.link ? (
          <Link to={notification.link} onClick={onOpen}>
            {title}
          </Link>
        ) : (
          title
        )}
        {unread && <Typography.Text type="secondary">(unread)</Typography.Text>}
      </Flex>
      {notification.body && <Typography.Text type="secondary">{notification.body}</Typography.Text>}
    </Flex>
  );
}

export function NotificationsList() {
  const { user } = useSessionState();
  const apiPath = notificationsPath(user?.uid ?? "");
  const { unreadCount, revision } = useInbox();
  useLiveReload(revision);
  const { tableProps, filters, setFilters } = useResourceTable<Notification>(
    RESOURCE,
    { field: "createdAt", order: "desc" },
    {
      meta: { apiPath },
      queryOptions: { enabled: Boolean(user) },
    },
  );
  const onlyUnread = filters.some((filter) => "field" in filter && filter.field === "unread");
  const { mutate: update } = useUpdate<Notification>();
  const setRead = (notification: Notification, read: boolean) =>
    update({
      resource: RESOURCE,
      id: notification.id,
      values: { read },
      meta: { apiPath },
      successNotification: false,
    });
  const invalidate = useInvalidate();
  const { mutate: markAll, mutation: markingAll } = useCustomMutation<MarkAllReadResult>();
  const markAllRead = () =>
    markAll(
      { url: `${apiPath}/mark-all-read`, method: "post", values: {}, successNotification: false },
      { onSuccess: () => void invalidate({ resource: RESOURCE, invalidates: ["list"] }) },
    );

  return (
    <PageFrame
      title="Notifications"
      subtitle={unreadCount ? `${unreadCount} unread` : "Messages about your vehicles, tunes and requests"}
      extra={
        <Button icon={<CheckOutlined />} onClick={markAllRead} loading={markingAll.isPending} disabled={!unreadCount}>
          Mark all read
        </Button>
      }
    >
      <Segmented
        aria-label="Show"
        value={onlyUnread ? "unread" : "all"}
        options={[
          { value: "all", label: "All" },
          { value: "unread", label: "Unread" },
        ]}
        onChange={(value) => setFilters(value === "unread" ? UNREAD : [], "replace")}
        style={{ alignSelf: "start" }}
      />
      <Table
        {...tableProps}
        rowKey="id"
        size="middle"
        aria-label="Notifications"
        locale={{
          emptyText: (
            <EmptyState title={onlyUnread ? "Nothing unread" : "You are all caught up"}>
              Updates on your support requests arrive here as they happen, newest first.
            </EmptyState>
          ),
        }}
      >
        <Table.Column<Notification>
          title="Notification"
          render={(_, notification) => (
            <NotificationText
              notification={notification}
              onOpen={() => notification.readAt === null && setRead(notification, true)}
            />
          )}
        />
        <Table.Column<Notification>
          dataIndex="createdAt"
          title="When"
          width={200}
          render={(at: string) => <time dateTime={at}>{new Date(at).toLocaleString()}</time>}
        />
        <Table.Column<Notification>
          title="Actions"
          width={140}
          render={(_, notification) => (
            <Button size="small" onClick={() => setRead(notification, notification.readAt === null)}>
              {notification.readAt === null ? "Mark read" : "Mark unread"}
            </Button>
          )}
        />
      </Table>
    </PageFrame>
  );
}
