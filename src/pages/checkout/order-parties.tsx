/** What an order is for and between: the tune, the car its licence binds to and the selling dealer. */
import { Descriptions } from "antd";
import type { Checkout } from "../../../contracts/payments";
import { catalogueCarText } from "../../lib/catalogue-car";

/** The car as its vehicle card names it: the catalogue's make, model and engine, its name and VIN. */
export function CarText({ vehicle }: { vehicle: Checkout["vehicle"] }) {
  if (!vehicle) return <>a car since removed</>;
  return (
    <span data-testid="checkout-car">
      {catalogueCarText(vehicle.catalogue)} ({vehicle.name}) · VIN {vehicle.vin ?? "unknown"}
    </span>
  );
}

export const dealerText = (checkout: Checkout) => checkout.dealer?.businessName ?? "a dealer no longer listed";

/** The lines of a checkout before paying: what is bought, for which car, from whom. */
export function OrderParties({ checkout, price }: { checkout: Checkout; price: string }) {
  return (
    <Descriptions column={1} size="small" aria-label="Order">
      <Descriptions.Item label="Tune">{checkout.order.title}</Descriptions.Item>
      <Descriptions.Item label={checkout.order.kind === "tune-file" ? "Licensed for" : "Car"}>
        <CarText vehicle={checkout.vehicle} />
      </Descriptions.Item>
      <Descriptions.Item label="Sold by">{dealerText(checkout)}</Descriptions.Item>
      <Descriptions.Item label="Price">{price}</Descriptions.Item>
    </Descriptions>
  );
}
