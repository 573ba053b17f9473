import { useParams } from "react-router";
import { EmptyState, PageFrame } from "../../components/page-frame";

export function UsersShow() {
  const { userId } = useParams();
  return (
    <PageFrame title="User" subtitle={`User ${userId}`}>
      <EmptyState title="Nothing recorded for this user yet">
        This user's account, role, dealer profile, vehicles, purchases, transactions and repository access.
      </EmptyState>
    </PageFrame>
  );
}
