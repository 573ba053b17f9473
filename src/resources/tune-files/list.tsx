import { Flex, Tabs } from "antd";
import { useSearchParams } from "react-router";
import { PageFrame } from "../../components/page-frame";
import { RouteDrawer, useDrawerRoute } from "../../components/resource/drawer-route";
import { useSessionState } from "../../providers/session-context";
import { TuneCatalogue } from "./catalogue";
import { PayoutAccount } from "./payouts";
import { DealerRepositories, RepositoryAccessList } from "./repositories";
import { Transactions } from "./transactions";
import { TuneShow } from "./tune-show";
import { TuneUpload } from "./tune-upload";
import { MyVehicles } from "./vehicles";

export const MY_TUNES_PATH = "/my-tunes";

/** Everyone sees their vehicles' tunes; dealers and admins also manage a catalogue here, in drawers over it. */
export function MyTunesList() {
  const drawer = useDrawerRoute(MY_TUNES_PATH);
  const { user, role } = useSessionState();
  const sells = role === "dealer" || role === "admin";
  // A link may open a tab (the dashboard's sales: `?tab=transactions`).
  const [searchParams] = useSearchParams();
  const tab = searchParams.get("tab");
  const vehicles = { key: "vehicles", label: "My vehicles", children: <MyVehicles /> };
  const transactions = {
    key: "transactions",
    label: sells ? "Sales and payments" : "Payments",
    children: user ? (
      <Flex vertical gap={16}>
        {role === "dealer" && <PayoutAccount uid={user.uid} />}
        <Transactions uid={user.uid} />
      </Flex>
    ) : null,
  };
  const repositories = {
    key: "repositories",
    label: sells ? "Repositories" : "Private collections",
    children: (
      <Flex vertical gap={16}>
        {sells && <DealerRepositories />}
        {user && <RepositoryAccessList uid={user.uid} />}
      </Flex>
    ),
  };
  return (
    <PageFrame
      title="My tunes"
      subtitle={
        sells ? "Your vehicles' tunes, and the tune files you sell" : "Tune files bought and baked for your vehicles"
      }
    >
      {sells ? (
        <Tabs
          key={tab ?? ""}
          defaultActiveKey={
            tab && ["catalogue", "vehicles", "transactions", "repositories"].includes(tab) ? tab : "catalogue"
          }
          items={[
            {
              key: "catalogue",
              label: "My catalogue",
              children: <TuneCatalogue dealerUid={role === "admin" ? null : (user?.uid ?? null)} drawer={drawer} />,
            },
            vehicles,
            transactions,
            repositories,
          ]}
        />
      ) : (
        <Tabs
          key={tab ?? ""}
          defaultActiveKey={tab && ["vehicles", "transactions", "repositories"].includes(tab) ? tab : "vehicles"}
          items={[vehicles, transactions, repositories]}
        />
      )}
      <RouteDrawer open={drawer.action === "create"} title="Upload a tune" onClose={drawer.close} width={860}>
        <TuneUpload onSaved={(tune) => drawer.show(tune.id)} />
      </RouteDrawer>
      <RouteDrawer open={drawer.action === "show"} title="Tune file" onClose={drawer.close} width={860}>
        {drawer.id && <TuneShow id={drawer.id} />}
      </RouteDrawer>
    </PageFrame>
  );
}
