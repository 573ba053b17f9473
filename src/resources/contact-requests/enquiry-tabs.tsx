import { SectionTabs } from "../../components/resource/section-tabs";

/** Contact and demo requests are one inbox for admins: two lists side by side. */
export const ENQUIRY_SECTIONS = [
  { path: "/admin/enquiries", label: "Contact requests" },
  { path: "/admin/enquiries/demo", label: "Demo requests" },
] as const;

export function EnquiryTabs() {
  return <SectionTabs sections={ENQUIRY_SECTIONS} />;
}
