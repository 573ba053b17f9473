import { ThunderboltOutlined } from "@ant-design/icons";
import { createElement } from "react";
import { drawerRoutes } from "../../routing/drawer-routes";
import { lazyPage } from "../../routing/lazy-page";
import type { ResourceDefinition } from "../../routing/types";
import { apiPaths } from "../../../contracts/api-paths";

export const myTunes: ResourceDefinition = {
  name: "my-tunes",
  guard: "auth",
  layout: "portal",
  ...drawerRoutes("/my-tunes", lazyPage(() => import("./list"), "MyTunesList"), ["show", "create"]),
  meta: { label: "My tunes", icon: createElement(ThunderboltOutlined), menu: "portal", apiPath: apiPaths["my-tunes"].list },
};
