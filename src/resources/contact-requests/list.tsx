import { getDefaultSortOrder } from "@refinedev/antd";
import { Table, Tag, Typography } from "antd";
import { type ContactRequest, contactTopicLabels, contactTopics } from "../../../contracts/public-site";
import { PageFrame } from "../../components/page-frame";
import { choiceFilter, exactFilter } from "../../components/resource/column-filters";
import { useResourceTable } from "../../components/resource/use-resource-table";
import { EnquiryTabs } from "./enquiry-tabs";

export function ContactRequestsList() {
  const { tableProps, filters, sorters } = useResourceTable<ContactRequest>("contact-requests", {
    field: "createdAt",
    order: "desc",
  });
  return (
    <PageFrame title="Enquiries" subtitle="What visitors sent through the contact form">
      <EnquiryTabs />
      <Table
        {...tableProps}
        rowKey="id"
        size="middle"
        aria-label="Contact requests"
        expandable={{
          expandedRowRender: (request) => (
            <Typography.Paragraph style={{ whiteSpace: "pre-wrap", margin: 0 }}>{request.message}</Typography.Paragraph>
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
        <Table.Column
          dataIndex="topic"
          title="Topic"
          sorter
          {...choiceFilter(
            "topic",
            "Topic",
            filters,
            contactTopics.map((topic) => ({ value: topic, label: contactTopicLabels[topic] })),
          )}
          render={(topic: ContactRequest["topic"]) => <Tag>{contactTopicLabels[topic]}</Tag>}
        />
        <Table.Column dataIndex="name" title="Name" sorter />
        <Table.Column
          dataIndex="email"
          title="Email"
          sorter
          {...exactFilter("email", "Email", filters)}
          render={(email: string) => <a href={`mailto:${email}`}>{email}</a>}
        />
        <Table.Column dataIndex="vehicle" title="Vehicle" />
      </Table>
    </PageFrame>
  );
}
