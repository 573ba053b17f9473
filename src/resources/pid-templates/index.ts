import { OrderedListOutlined } from "@ant-design/icons";
import { createElement } from "react";
import type { ResourceDefinition } from "../types";
import { PidTemplatesList } from "./list";

export const pidTemplates: ResourceDefinition = {
  name: "pid-templates",
  guard: "admin",
  layout: "portal",
  list: { path: "/admin/pid-templates", component: PidTemplatesList },
  meta: { label: "PID templates", icon: createElement(OrderedListOutlined), menu: "admin", apiPath: "firmware-support/pid-descriptors" },
};
