import { SectionTabs } from "../../components/resource/section-tabs";

const sections = [
  { path: "/admin/firmware-support", label: "Firmware records" },
  { path: "/admin/firmware-support/matrix", label: "Support matrix" },
  { path: "/admin/firmware-support/vehicles", label: "Supported vehicles" },
  { path: "/admin/firmware-support/passwords", label: "Password storage" },
];

/** The firmware-support pages: records, the support matrix, vehicles and stored passwords. */
export const FirmwareSections = () => <SectionTabs sections={sections} />;
