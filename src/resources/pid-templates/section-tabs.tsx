import { SectionTabs } from "../../components/resource/section-tabs";

const sections = [
  { path: "/admin/pid-templates", label: "Templates" },
  { path: "/admin/pid-templates/descriptors", label: "PID descriptors" },
];

/** Templates and the descriptors they are built from. */
export const PidSections = () => <SectionTabs sections={sections} />;
