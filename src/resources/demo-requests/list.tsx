import { getDefaultSortOrder } from "@refinedev/antd";
import { Table, Typography } from "antd";
import type { DemoRequest } from "../../../contracts/public-site";
import { PageFrame } from "../../components/page-frame";
import { exactFilter } from "../../components/resource/column-filters";
import { useResourceTable } from "../../components/resource/use-resource-table";
import { EnquiryTabs } from "../contact-requests/enquiry-tabs";

export function DemoRequestsList() {
  const { tableProps, filters, sorters } = useResourceTable<DemoRequest>("demo-requests", {
    field: "createdAt",
    order: "desc",
  });
  return (
    <PageFrame title="Enquiries" subtitle="Businesses asking for a demo">
      <EnquiryTabs />
      <Table
        {...tableProps}
        rowKey="id"
        size="middle"
        aria-label="Demo requests"
        expandable={{
          rowExpandable: (request) => Boolean(request.message || request.platforms),
          expandedRowRender: (request) => (
            <Typography.Paragraph style={{ whiteSpace: "pre-wrap", margin: 0 }}>
              {[request.platforms && `Platforms: ${request.platforms}`, request.message].filter(Boolean).join("\n\n")}
            </Typography.Paragraph>
          ),
        }}
      >
        <Table.Column
          dataIndex="createdAt"
          title="Received"
          sorter
          defaultSortOrder={getDefaultSortOrder("createdAt", sorters)}
          render={(at: string) => new Date(at).toLocaleString()}
        />
        <Table.Column dataIndex="businessName" title="Business" sorter />
        <Table.Column dataIndex="name" title="Name" sorter />
        <Table.Column
          dataIndex="email"
          title="Email"
          {...exactFilter("email", "Email", filters)}
          render={(email: string) => <a href={`mailto:${email}`}>{email}</a>}
        />
        <Table.Column dataIndex="phone" title="Phone" />
        <Table.Column dataIndex="country" title="Country" sorter {...exactFilter("country", "Country", filters)} />
      </Table>
    </PageFrame>
  );
}
