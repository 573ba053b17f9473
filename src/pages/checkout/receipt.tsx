/** A paid order's receipt: shown after paying and reopened from the order later; prints alone. */
import { PrinterOutlined } from "@ant-design/icons";
import { Button, Descriptions, Flex, Typography } from "antd";
import type { Checkout, Order } from "../../../contracts/payments";
import { formatMoney } from "../../lib/money";
import { CarText, dealerText } from "./order-parties";
import "./receipt.css";

export function Receipt({ checkout, order }: { checkout: Checkout; order: Order }) {
  return (
    <section className="printable-receipt" aria-label="Receipt">
      <Flex vertical gap={12}>
        <Typography.Title level={4}>Receipt</Typography.Title>
        <Descriptions column={1} size="small" bordered>
          <Descriptions.Item label="Order">{order.id}</Descriptions.Item>
          <Descriptions.Item label="Tune">{order.title}</Descriptions.Item>
          <Descriptions.Item label="Dealer">{dealerText(checkout)}</Descriptions.Item>
          <Descriptions.Item label="Car">
            <CarText vehicle={checkout.vehicle} />
          </Descriptions.Item>
          <Descriptions.Item label="Amount">
            {formatMoney(order.amountCents, order.currency)} ({order.currency})
          </Descriptions.Item>
          <Descriptions.Item label="Date">
            {new Date(order.paidAt ?? order.createdAt).toLocaleString()}
          </Descriptions.Item>
          <Descriptions.Item label="Payment reference">
            {checkout.paymentReference ?? "none: nothing was charged"}
          </Descriptions.Item>
        </Descriptions>
        <Flex className="receipt-actions" gap={8}>
          <Button icon={<PrinterOutlined />} onClick={() => window.print()}>
            Print receipt
          </Button>
        </Flex>
      </Flex>
    </section>
  );
}
