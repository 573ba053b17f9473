/**
 * The car's storefront and its licences: tunes for sale for the car's firmware, each with its
 * dealer, price and description (and the dealer's private collection it comes from, at no charge when
 * its dealer gives that collection's tunes to its members), bought for this car only; the licences it holds (used by the
 * first verified flash), which an admin or the selling dealer may remove with a reason, refunding
 * a paid one. A licence paid on the checkout page appears here without a reload (the car's event
 * stream tells of the order).
 */
import { type HttpError, useCustom, useCustomMutation, useGo } from "@refinedev/core";
import { Alert, Button, Card, Flex, List, Space, Tag, Typography } from "antd";
import { useEffect, useState } from "react";
import { apiPaths, apiRoutes } from "../../../contracts/api-paths";
import type { Checkout, Licence } from "../../../contracts/payments";
import type { RepositoryAccess } from "../../../contracts/repositories";
import type { TuneFile } from "../../../contracts/tune-files";
import type { Vehicle } from "../../../contracts/user-vehicles";
import { failureText } from "../../lib/http-errors";
import { formatMoney } from "../../lib/money";
import { storefrontOf } from "../../lib/storefront";
import { useSessionState } from "../../providers/session-context";
import { LicenceRemoval } from "../payments/licence-removal";
import { ReceiptLink } from "../payments/receipt-link";

interface Page<T> {
  data: T[];
}

function RemoveLicence({ vehicle, licence, onDone }: { vehicle: Vehicle; licence: Licence; onDone: () => void }) {
  const paid = Boolean(licence.orderId);
  return (
    <LicenceRemoval
      vehicleId={vehicle.id}
      tuneFileId={licence.tuneFileId}
      title={licence.title}
      paid={paid}
      verb={paid ? "Refund and remove" : "Remove"}
      explanation={`The customer is told the reason${paid ? "; the payment is refunded in full and the dealer's sale and fee reversed" : ""}.`}
      onDone={onDone}
    />
  );
}

/** `licenceVersion` grows when the car's event stream tells of an order or of a flash that ended (which uses a licence). */
export function TuneStore({ vehicle, licenceVersion }: { vehicle: Vehicle; licenceVersion: number }) {
  const { user, role } = useSessionState();
  const go = useGo();
  const owner = vehicle.ownerUid === user?.uid;
  const licences = useCustom<Page<Licence>>({ url: apiRoutes.vehicles.purchases(vehicle.id), method: "get" });
  const forSale = useCustom<Page<TuneFile>>({
    url: apiPaths["tune-files"].list,
    method: "get",
    config: {
      filters: [
        { field: "firmwareId", operator: "eq", value: vehicle.firmwareId ?? "-" },
        { field: "published", operator: "eq", value: true },
      ],
      query: { pageSize: 50 },
    },
    queryOptions: { enabled: Boolean(vehicle.firmwareId) && owner },
  });
  // The private collections the owner reaches: their tunes are marked, and some are at no charge.
  const collections = useCustom<Page<RepositoryAccess>>({
    url: apiRoutes.users.repositoryAccess(user?.uid ?? "-"),
    method: "get",
    queryOptions: { enabled: Boolean(user) && owner },
  });
  const collectionOf = (tune: TuneFile) =>
    (collections.query.data?.data.data ?? []).find((access) => access.repositoryId === tune.repositoryId);
  const buy = useCustomMutation<Checkout>();
  const [buyError, setBuyError] = useState<string | null>(null);
  const [buying, setBuying] = useState<string | null>(null);
  const refetchLicences = licences.query.refetch;
  // A paid order, a refund or a verified flash told by the car's event stream: the licences changed.
  useEffect(() => {
    if (licenceVersion > 0) void refetchLicences();
  }, [licenceVersion, refetchLicences]);

  const held = new Set((licences.query.data?.data.data ?? []).map((licence) => licence.tuneFileId));
  const { offers, ownsEveryOffer } = storefrontOf(forSale.query.data?.data.data ?? [], held, user?.uid);
  const purchase = (tune: TuneFile) => {
    setBuyError(null);
    setBuying(tune.id);
    buy.mutate(
      {
        url: apiRoutes.payments.tuneFileOrder(),
        method: "post",
        values: { tuneFileId: tune.id, vehicleId: vehicle.id },
        successNotification: false,
        errorNotification: false,
      },
      {
        onSuccess: ({ data }) => {
          // A free tune is licensed at once; otherwise the order is paid on the checkout page (the sandbox's or Stripe's).
          if (data.order.status === "paid") void refetchLicences();
          else go({ to: data.checkoutPath ?? `/checkout/${data.order.id}` });
        },
        onError: (failure: HttpError) => setBuyError(failureText(failure)),
      },
    );
  };

  return (
    <Flex vertical gap={16}>
      <Card title="Licences" size="small">
        <List
          aria-label="Licences"
          locale={{ emptyText: "No tune is licensed for this car yet" }}
          dataSource={licences.query.data?.data.data ?? []}
          renderItem={(licence) => (
            <List.Item
              data-testid="licence"
              actions={
                role === "admin" || licence.dealerUid === user?.uid
                  ? [
                      <RemoveLicence
                        key="remove"
                        vehicle={vehicle}
                        licence={licence}
                        onDone={() => void refetchLicences()}
                      />,
                    ]
                  : []
              }
            >
              <Space wrap>
                <Typography.Text strong>{licence.title}</Typography.Text>
                {licence.consumedAt ? (
                  <Tag>used by the flash of {new Date(licence.consumedAt).toLocaleDateString()}</Tag>
                ) : (
                  <Tag color="green">unused</Tag>
                )}
                <Typography.Text type="secondary">
                  {licence.orderId ? "bought" : "granted"} {new Date(licence.createdAt).toLocaleDateString()}
                </Typography.Text>
                <ReceiptLink licence={licence} />
              </Space>
            </List.Item>
          )}
        />
      </Card>
      {owner && (
        <Card title="Tunes for this car" size="small">
          {!vehicle.firmwareId ? (
            <Alert
              type="info"
              showIcon
              message="Read the car's stock with the app first: tunes are offered for the firmware it runs."
            />
          ) : (
            <List
              aria-label="Tunes for this car"
              loading={forSale.query.isLoading}
              locale={{
                emptyText: ownsEveryOffer ? (
                  <span data-testid="owns-every-offer">
                    You own every tune offered for {vehicle.firmwareId}.{" "}
                    <Typography.Link href="#flash">Flash it</Typography.Link>
                  </span>
                ) : (
                  `No dealer sells a tune for ${vehicle.firmwareId} yet`
                ),
              }}
              dataSource={offers}
              renderItem={(tune) => {
                const collection = collectionOf(tune);
                return (
                  <List.Item
                    data-testid="offer"
                    actions={[
                      <Button
                        key="buy"
                        type="primary"
                        onClick={() => purchase(tune)}
                        loading={buy.mutation.isPending && buying === tune.id}
                      >
                        {collection?.freeForMembers
                          ? "Get at no charge"
                          : `Buy for ${formatMoney(tune.priceCents, tune.currency)}`}
                      </Button>,
                    ]}
                  >
                    <List.Item.Meta
                      title={
                        <Space wrap>
                          {tune.title}
                          {collection && <Tag color="purple">from your collection “{collection.name}”</Tag>}
                        </Space>
                      }
                      description={`${tune.dealerName ?? "A dealer"} · ${tune.description || "no description"}`}
                    />
                  </List.Item>
                );
              }}
            />
          )}
          {buyError && (
            <Alert
              type="error"
              showIcon
              message="The checkout did not open"
              description={buyError}
              style={{ marginTop: 12 }}
            />
          )}
        </Card>
      )}
    </Flex>
  );
}
