import { EmptyState, PageFrame } from "../../components/page-frame";

export function ManagedDealersList() {
  return (
    <PageFrame title="Dealers" subtitle="The tuners you work with">
      <EmptyState title="No dealers linked yet">
        Dealers who manage your vehicles, and whose tune files you have bought, are listed here with their contact details.
      </EmptyState>
    </PageFrame>
  );
}
