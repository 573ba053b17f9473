import { EmptyState, PageFrame } from "../../components/page-frame";

export function UsersList() {
  return (
    <PageFrame title="Users" subtitle="Accounts of customers, dealers and administrators">
      <EmptyState title="No users to show">
        Every account with its role, status, vehicles, purchases and dealer profile, searchable and filterable.
      </EmptyState>
    </PageFrame>
  );
}
