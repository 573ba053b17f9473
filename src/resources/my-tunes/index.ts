import { ThunderboltOutlined } from "@ant-design/icons";
import { createElement } from "react";
import type { ResourceDefinition } from "../types";
import { MyTunesList } from "./list";

export const myTunes: ResourceDefinition = {
  name: "my-tunes",
  guard: "auth",
  layout: "portal",
  list: { path: "/my-tunes", component: MyTunesList },
  meta: { label: "My tunes", icon: createElement(ThunderboltOutlined), menu: "portal", apiPath: "tune-files" },
};
