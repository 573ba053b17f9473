import { PageFrame, EmptyState } from "../../components/page-frame";

export function MyDeviceList() {
  return (
    <PageFrame title="My vehicles" subtitle="Cars you have connected with the app">
      <EmptyState title="No vehicles connected yet">
        Connect your car with the mobile app and an OBD adapter: it reads the VIN, ECU and firmware, and the vehicle appears here
        with its stock read, the tunes you own for it and every flash.
      </EmptyState>
    </PageFrame>
  );
}
