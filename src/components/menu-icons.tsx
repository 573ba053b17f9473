/** The portal menu's icons, in one chunk that loads with the portal (src/components/menu-icon.tsx). */
import {
  ApiOutlined,
  BellOutlined,
  BuildOutlined,
  CarOutlined,
  CarryOutOutlined,
  CloudServerOutlined,
  CloudUploadOutlined,
  CrownOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  FileUnknownOutlined,
  FunctionOutlined,
  IdcardOutlined,
  InboxOutlined,
  InfoCircleOutlined,
  KeyOutlined,
  LineChartOutlined,
  MailOutlined,
  NodeIndexOutlined,
  OrderedListOutlined,
  QuestionCircleOutlined,
  ShopOutlined,
  TableOutlined,
  TeamOutlined,
  ThunderboltOutlined,
  ToolOutlined,
} from "@ant-design/icons";

export const MENU_ICONS = {
  ApiOutlined,
  BellOutlined,
  BuildOutlined,
  CarOutlined,
  CarryOutOutlined,
  CloudServerOutlined,
  CloudUploadOutlined,
  CrownOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  FileUnknownOutlined,
  FunctionOutlined,
  IdcardOutlined,
  InboxOutlined,
  InfoCircleOutlined,
  KeyOutlined,
  LineChartOutlined,
  MailOutlined,
  NodeIndexOutlined,
  OrderedListOutlined,
  QuestionCircleOutlined,
  ShopOutlined,
  TableOutlined,
  TeamOutlined,
  ThunderboltOutlined,
  ToolOutlined,
};

export type MenuIconName = keyof typeof MENU_ICONS;

export function MenuIconView({ name }: { name: MenuIconName }) {
  const Icon = MENU_ICONS[name];
  return <Icon />;
}
