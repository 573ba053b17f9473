import { useCustom } from "@refinedev/core";
import { Alert, Card, Descriptions, Flex, Tag } from "antd";
import { useDeferredValue } from "react";
import type { Account } from "../../../contracts/account";
import { apiRoutes } from "../../../contracts/api-paths";
import type { Dashboard } from "../../../contracts/dashboard";
import { PageFrame } from "../../components/page-frame";
import { greetingFor } from "../../lib/greeting";
import { AdminFigures } from "./admin";
import { CustomerFigures } from "./customer";
import { DealerFigures } from "./dealer";
import { OpenRequests } from "./open-requests";

const roleColour: Record<Account["role"], string> = { customer: "blue", dealer: "gold", admin: "red" };

export function DashboardPage() {
  const { query } = useCustom<Account>({ url: apiRoutes.account.mine(), method: "get" });
  // `result` starts as an empty object; the query data is undefined until the answer arrives.
  const account = query.data?.data;
  return (
    <PageFrame title="Dashboard" subtitle={account ? greetingFor(account) : undefined}>
      <Card loading={query.isLoading} title="Your account">
        {account && (
          <Descriptions column={{ xs: 1, md: 3 }} size="small">
            <Descriptions.Item label="Email">{account.email}</Descriptions.Item>
            <Descriptions.Item label="Role">
              <Tag color={roleColour[account.role]} data-testid="account-role">
                {account.role}
              </Tag>
            </Descriptions.Item>
            <Descriptions.Item label="Email verified">{account.emailVerified ? "Yes" : "No"}</Descriptions.Item>
            {account.profile.dealer && (
              <Descriptions.Item label="Dealer profile">
                {account.profile.dealer.businessName} <Tag>{account.profile.dealer.status}</Tag>
              </Descriptions.Item>
            )}
          </Descriptions>
        )}
      </Card>
      <Figures />
      {account?.role === "dealer" && <OpenRequests uid={account.uid} dealer />}
    </PageFrame>
  );
}

/** The live figures of the caller's role, from `GET /dashboard`. */
function Figures() {
  const { query } = useCustom<Dashboard>({ url: apiRoutes.dashboard.mine(), method: "get", errorNotification: false });
  // The query's answer reaches this component through useSyncExternalStore, whose updates React
  // renders at once, in one task: on a phone the figures, the last flash and the lists under them
  // made one long task. Deferred, the update itself renders only the
  // loading card again, and the figures follow as a transition, in slices the browser can answer between.
  const figures = useDeferredValue(query.data?.data);
  if (query.isError)
    return <Alert type="error" showIcon message="The figures could not be loaded" description={query.error?.message} />;
  if (!figures) return <Card loading aria-label="Loading the figures" />;
  return (
    <Flex vertical gap={16} data-testid={`dashboard-${figures.role}`}>
      {figures.role === "customer" && <CustomerFigures figures={figures} />}
      {figures.role === "dealer" && <DealerFigures figures={figures} />}
      {figures.role === "admin" && <AdminFigures figures={figures} />}
    </Flex>
  );
}
