import { ThunderboltOutlined } from "@ant-design/icons";
import { createElement } from "react";
import { lazyPage } from "../lazy-page";
import type { ResourceDefinition } from "../types";

export const myTunes: ResourceDefinition = {
  name: "my-tunes",
  guard: "auth",
  layout: "portal",
  list: { path: "/my-tunes", component: lazyPage(() => import("./list"), "MyTunesList") },
  meta: { label: "My tunes", icon: createElement(ThunderboltOutlined), menu: "portal", apiPath: "tune-files" },
};
