import { EmptyState, PageFrame } from "../../components/page-frame";

export function OnboardingVehiclesList() {
  return (
    <PageFrame title="Onboarding vehicles" subtitle="Support requests for unsupported vehicles">
      <EmptyState title="No support requests">
        When a user connects a vehicle we do not support yet, the request (VIN, make, model, year, ECU ids and an optional read) arrives here to be investigated, supported or rejected.
      </EmptyState>
    </PageFrame>
  );
}
