/**
 * The log view on a phone: the channel list and the tools (toolbar, layouts, filter, readout,
 * markers, pulls) open over the chart from two buttons, so the chart has the whole screen. Stacked
 * under and over it, they left the chart a third of the screen and a long scroll to each tool.
 */
import { ToolOutlined, UnorderedListOutlined } from "@ant-design/icons";
import { Button, Drawer, Flex } from "antd";
import type { ReactNode } from "react";

export type PhoneDrawer = "channels" | "tools";

interface PhoneDrawersProps {
  open: PhoneDrawer | null;
  onOpen: (drawer: PhoneDrawer | null) => void;
  /** How many channels are charted, named on the button. */
  charted: number;
  channels: ReactNode;
  tools: ReactNode;
}

export function PhoneDrawers({ open, onOpen, charted, channels, tools }: PhoneDrawersProps) {
  const close = () => onOpen(null);
  return (
    <>
      <Flex gap={8}>
        <Button icon={<UnorderedListOutlined />} onClick={() => onOpen("channels")}>
          {`Channels (${charted})`}
        </Button>
        <Button icon={<ToolOutlined />} onClick={() => onOpen("tools")}>
          Tools
        </Button>
      </Flex>
      {/* From the left, as the list sits on a desktop; the chart stays in sight beside it as channels are ticked. */}
      <Drawer title="Channels" placement="left" width="85%" open={open === "channels"} onClose={close}>
        <Flex vertical style={{ height: "100%" }}>
          {channels}
        </Flex>
      </Drawer>
      <Drawer title="Tools" placement="bottom" height="75%" open={open === "tools"} onClose={close}>
        <Flex vertical gap={12}>
          {tools}
        </Flex>
      </Drawer>
    </>
  );
}
