/** One live figure of the dashboard: a statistic on a card that links to the page it summarises. */
import { Card, Empty, List, Statistic } from "antd";
import type { ReactNode } from "react";
import { Link } from "../../components/link";

export function Figure({
  title,
  value,
  to,
  suffix,
  testId,
  danger,
}: {
  title: string;
  value: number | string;
  to: string;
  suffix?: ReactNode;
  testId: string;
  danger?: boolean;
}) {
  return (
    <Link to={to} aria-label={`${title}: ${value}`} data-testid={testId}>
      <Card hoverable size="small" style={{ height: "100%" }}>
        <Statistic title={title} value={value} suffix={suffix} valueStyle={danger ? { color: "#cf1322" } : undefined} />
      </Card>
    </Link>
  );
}

/** The empty state of a list figure: shown only when the list really has nothing. */
export function NothingYet({ text, action }: { text: string; action?: ReactNode }) {
  return (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text}>
      {action}
    </Empty>
  );
}

/** A titled list of a figure's newest items (its title is the list's name), or the empty state when there are none. */
export function ListCard<T>({
  title,
  extra,
  items,
  empty,
  renderItem,
}: {
  title: string;
  extra?: ReactNode;
  items: T[];
  empty: string;
  renderItem: (item: T) => ReactNode;
}) {
  const label = title.replace(/ \(\d+\)$/, "");
  return (
    <Card title={title} size="small" extra={extra}>
      {items.length === 0 ? (
        <NothingYet text={empty} />
      ) : (
        <List
          aria-label={label}
          size="small"
          dataSource={items}
          renderItem={(item) => <List.Item>{renderItem(item)}</List.Item>}
        />
      )}
    </Card>
  );
}
