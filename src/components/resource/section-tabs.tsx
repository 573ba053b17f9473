/** Tabs that are routes: pages of one admin area side by side; a drawer route belongs to the page it extends. */
import { Tabs } from "antd";
import { useLocation, useNavigate } from "react-router";

export function SectionTabs({ sections }: { sections: ReadonlyArray<{ path: string; label: string }> }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  // The longest matching path wins: /admin/x/vehicles/edit/… is the vehicles tab, not /admin/x.
  const active = [...sections]
    .sort((a, b) => b.path.length - a.path.length)
    .find((section) => pathname === section.path || pathname.startsWith(`${section.path}/`))?.path;
  return (
    <Tabs
      activeKey={active}
      items={sections.map(({ path, label }) => ({ key: path, label }))}
      onChange={(key) => navigate(key)}
    />
  );
}
