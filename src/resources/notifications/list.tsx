import { EmptyState, PageFrame } from "../../components/page-frame";

export function NotificationsList() {
  return (
    <PageFrame title="Notifications" subtitle="Messages about your vehicles, tunes and requests">
      <EmptyState title="You are all caught up">
        Updates on your tuning requests, purchases, flashes and support requests arrive here, newest first.
      </EmptyState>
    </PageFrame>
  );
}
