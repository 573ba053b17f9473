/** One live figure of the dashboard: a statistic on a card that links to the page it summarises. */
import { Card, Empty, Statistic } from "antd";
import type { ReactNode } from "react";
import { Link } from "../../components/link";

export function Figure({ title, value, to, suffix, testId, danger }: { title: string; value: number | string; to: string; suffix?: ReactNode; testId: string; danger?: boolean }) {
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
