/**
 * A dealer's page (/managed-dealers/:id), for visitors and users alike: who they are (with their own
 * words about the business, shown as the plain text they wrote), the vehicles
 * they tune, their published tunes with prices, and the way to ask them for a custom tune. A
 * customer asks for one of their cars; a visitor is sent to sign in and comes back here.
 */
import { useCustom } from "@refinedev/core";
import { Alert, Button, Drawer, Flex, Select, Skeleton, Table, Typography } from "antd";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { apiPaths, apiRoutes } from "../../../contracts/api-paths";
import type { Dealer } from "../../../contracts/dealers";
import type { PublicTuneFile } from "../../../contracts/tune-files";
import type { Vehicle } from "../../../contracts/user-vehicles";
import { PageFrame } from "../../components/page-frame";
import { dealerLogoUrl } from "../../components/profile-change-requests/parts";
import { useRecordMissing } from "../../components/record-not-found";
import { NewTuningRequest } from "../../components/tuning-requests/new-request";
import { formatMoney } from "../../lib/money";
import { useSessionState } from "../../providers/session-context";
import { VehicleTags } from "./list";

export function ManagedDealerShow() {
  const { id = "" } = useParams();
  const dealer = useCustom<Dealer>({
    url: `${apiPaths["managed-dealers"].record}/${id}`,
    method: "get",
    errorNotification: false,
  });
  const tunes = useCustom<{ data: PublicTuneFile[]; total: number }>({
    url: apiRoutes.dealers.tuneFiles(id),
    method: "get",
    config: { query: { pageSize: 100 }, sorters: [{ field: "title", order: "asc" }] },
    errorNotification: false,
  });
  const missing = useRecordMissing(dealer.query.error);
  if (missing) return null;
  if (dealer.query.isLoading) return <Skeleton active />;
  const profile = dealer.query.data?.data;
  if (!profile)
    return (
      <Alert type="error" showIcon message="Could not load the dealer" description={dealer.query.error?.message} />
    );
  return (
    <PageFrame
      title={profile.businessName}
      subtitle={[profile.country, `${profile.publishedTunes.toLocaleString()} published tunes`]
        .filter(Boolean)
        .join(" · ")}
      extra={<AskThisDealer dealer={profile} />}
    >
      <Flex vertical gap={16}>
        <Flex gap={16} align="center" wrap>
          {profile.logoSha256 && (
            <img
              src={dealerLogoUrl(profile.id, profile.logoSha256)}
              alt={`${profile.businessName} logo`}
              style={{ height: 48, maxWidth: 160, objectFit: "contain" }}
            />
          )}
          <Flex vertical gap={4}>
            <Typography.Text>
              Tuning on the portal since {new Date(profile.createdAt).toLocaleDateString()}
            </Typography.Text>
            {profile.website && (
              <Typography.Link href={profile.website} target="_blank" rel="noopener noreferrer">
                {profile.website.replace(/^https?:\/\//, "")}
              </Typography.Link>
            )}
          </Flex>
        </Flex>
        {profile.about && (
          <section aria-label={`About ${profile.businessName}`}>
            <Typography.Paragraph style={{ whiteSpace: "pre-line", margin: 0, maxWidth: 720 }}>
              {profile.about}
            </Typography.Paragraph>
          </section>
        )}
        <Flex vertical gap={4}>
          <Typography.Text strong>Vehicles they tune</Typography.Text>
          <VehicleTags dealer={profile} />
        </Flex>
        <Table<PublicTuneFile>
          rowKey="id"
          size="middle"
          aria-label="Tunes"
          loading={tunes.query.isLoading}
          dataSource={tunes.query.data?.data.data ?? []}
          pagination={false}
          locale={{ emptyText: "No published tunes yet: ask for a custom tune instead." }}
          columns={[
            {
              dataIndex: "title",
              title: "Tune",
              render: (title: string, tune) => (
                <Flex vertical>
                  <Typography.Text strong>{title}</Typography.Text>
                  {tune.description && <Typography.Text type="secondary">{tune.description}</Typography.Text>}
                </Flex>
              ),
            },
            { dataIndex: "firmwareId", title: "Firmware" },
            {
              dataIndex: "priceCents",
              title: "Price",
              render: (_: unknown, tune) => formatMoney(tune.priceCents, tune.currency),
            },
          ]}
        />
        <Typography.Text type="secondary">
          A tune is bought for one car, from that car's page under My vehicles, where the tunes for its software are
          offered.
        </Typography.Text>
      </Flex>
    </PageFrame>
  );
}

/** Opens the custom-tune request with this dealer chosen: for one of the customer's cars, or sign-in first. */
function AskThisDealer({ dealer }: { dealer: Dealer }) {
  const { user } = useSessionState();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  if (!user)
    return (
      <Button
        type="primary"
        onClick={() => navigate(`/login?to=${encodeURIComponent(`/managed-dealers/${dealer.id}`)}`)}
      >
        Sign in to ask this dealer for a custom tune
      </Button>
    );
  return (
    <>
      <Button type="primary" onClick={() => setOpen(true)}>
        Ask this dealer for a custom tune
      </Button>
      <Drawer
        open={open}
        title={`A custom tune from ${dealer.businessName}`}
        onClose={() => setOpen(false)}
        width={720}
        destroyOnHidden
      >
        <AskForCar dealer={dealer} />
      </Drawer>
    </>
  );
}

function AskForCar({ dealer }: { dealer: Dealer }) {
  const navigate = useNavigate();
  const vehicles = useCustom<{ data: Vehicle[] }>({
    url: apiPaths["user-vehicles"].list,
    method: "get",
    config: { query: { pageSize: 100 } },
  });
  const cars = vehicles.query.data?.data.data ?? [];
  const [chosen, setChosen] = useState<string | null>(null);
  // With one car there is nothing to choose.
  const vehicle = cars.find((car) => car.id === chosen) ?? (cars.length === 1 ? cars[0] : undefined);
  if (vehicles.query.isLoading) return <Skeleton active />;
  if (cars.length === 0)
    return (
      <Alert
        type="info"
        showIcon
        message="Add your car first"
        description={
          <>
            A custom tune is made for one car's own software: add it under <Link to="/my-devices">My vehicles</Link> and
            read its stock with the app.
          </>
        }
      />
    );
  return (
    <Flex vertical gap={12}>
      {cars.length > 1 && (
        <Select
          aria-label="Car"
          placeholder="Choose the car"
          value={vehicle?.id}
          onChange={setChosen}
          options={cars.map((car) => ({ value: car.id, label: car.name }))}
        />
      )}
      {vehicle && (
        <>
          <Typography.Text>For {vehicle.name}</Typography.Text>
          <NewTuningRequest
            key={vehicle.id}
            vehicle={vehicle}
            dealerId={dealer.id}
            onMade={(ticket) => navigate(`/my-devices/${vehicle.id}?request=${ticket.id}`)}
          />
        </>
      )}
    </Flex>
  );
}
