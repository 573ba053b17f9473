import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Col, Flex, Form, Input, Result, Row, Skeleton } from "antd";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { Account } from "../../../contracts/account";
import { apiRoutes } from "../../../contracts/api-paths";
import {
  type DealerProfileSummary,
  type DealerRequestInput,
  dealerRequestSchema,
} from "../../../contracts/public-site";
import { useGutter } from "../../components/layouts/snapshot-screen";
import { Link } from "../../components/link";
import { Paragraph, Title } from "../../components/text";
import { failureText } from "../../lib/http-errors";
import { useApiRead, useCreateRecord } from "../../providers/services-context";
import { useSessionState } from "../../providers/session-context";
import { applyServerErrors, FormField } from "./form-field";
import { LandingSection } from "./section";

const PATH = "/dealer-account-request";

const benefits = [
  "Publish tune files per ECU software, priced by you and bound to each customer's vehicle so they cannot be copied.",
  "Receive custom tuning requests with the stock read, the modifications and the customer's logs attached; send revisions back.",
  "Manage your customers' vehicles and see every flash log when someone calls.",
  "Payments are collected by card and paid out to you; refunds are possible until a file is flashed.",
];

const statusText: Record<DealerProfileSummary["status"], string> = {
  pending: "is waiting for approval. We check the business details and usually decide within two working days.",
  approved: "is approved. Your dealer tools are in the portal.",
  rejected: "was not approved. Contact us if you think we got it wrong.",
  suspended: "is suspended. Contact us to resolve it.",
};

function DealerForm({ onCreated }: { onCreated: (profile: DealerProfileSummary) => void }) {
  const { send, pending } = useCreateRecord<DealerProfileSummary>("dealers");
  const [failure, setFailure] = useState<string | null>(null);
  const { control, handleSubmit, setError } = useForm<DealerRequestInput>({
    resolver: zodResolver(dealerRequestSchema),
    defaultValues: { businessName: "", address: "", registrationNumber: "", vatNumber: "", website: "", phone: "" },
  });
  const submit = handleSubmit((values) => {
    setFailure(null);
    send(values).then(onCreated, (error: unknown) => {
      if (!applyServerErrors(error, setError) || (error as { statusCode?: number }).statusCode === 409)
        setFailure(failureText(error));
    });
  });
  return (
    <Form layout="vertical" onFinish={submit} noValidate requiredMark="optional" aria-label="Dealer account request">
      {failure && <Alert type="error" showIcon message={failure} role="alert" style={{ marginBottom: 16 }} />}
      <FormField control={control} name="businessName" label="Business name" required>
        {(field) => <Input {...field} autoComplete="organization" />}
      </FormField>
      <FormField control={control} name="address" label="Business address" required>
        {(field) => <Input.TextArea {...field} rows={3} autoComplete="street-address" />}
      </FormField>
      <FormField control={control} name="registrationNumber" label="Company registration number" required>
        {(field) => <Input {...field} />}
      </FormField>
      <FormField control={control} name="vatNumber" label="VAT number">
        {(field) => <Input {...field} />}
      </FormField>
      <FormField control={control} name="website" label="Website">
        {(field) => <Input {...field} type="url" placeholder="https://" autoComplete="url" />}
      </FormField>
      <FormField control={control} name="phone" label="Business phone" required>
        {(field) => <Input {...field} type="tel" autoComplete="tel" />}
      </FormField>
      <Button type="primary" htmlType="submit" loading={pending}>
        Send for approval
      </Button>
    </Form>
  );
}

function SignedInRequest() {
  const account = useApiRead<Account>(apiRoutes.account.mine());
  const [created, setCreated] = useState<DealerProfileSummary | null>(null);
  if (account.status === "loading") return <Skeleton active />;
  if (account.status === "error" && !created) {
    return (
      <Alert
        type="error"
        showIcon
        role="alert"
        message="Your account could not be read"
        description={failureText(account.error)}
        action={<Button onClick={account.retry}>Retry</Button>}
      />
    );
  }
  const existing = created ?? (account.status === "done" ? account.data.profile.dealer : null) ?? null;
  if (existing) {
    return (
      <Result
        status={existing.status === "approved" ? "success" : existing.status === "pending" ? "info" : "warning"}
        title={`Dealer account for ${existing.businessName}`}
        subTitle={`Your request ${statusText[existing.status as DealerProfileSummary["status"]] ?? "has been received."}`}
        extra={<Link to="/dashboard">Go to the portal</Link>}
      />
    );
  }
  return <DealerForm onCreated={setCreated} />;
}

export function DealerAccountRequestPage() {
  const gutter = useGutter([{ xs: 16, lg: 48 }, 24]);
  const { user, ready } = useSessionState();
  const back = encodeURIComponent(PATH);
  return (
    <LandingSection
      title="Become a dealer"
      lead="Sell your tunes and work custom requests through the portal, with flashing and logging your customers already use."
    >
      <Row gutter={gutter}>
        <Col xs={24} lg={14}>
          {!ready ? (
            <Skeleton active />
          ) : user ? (
            <SignedInRequest />
          ) : (
            <Flex vertical gap={12} align="start">
              <Paragraph>
                A dealer account belongs to a portal account: sign in or create one first, then send your business
                details here.
              </Paragraph>
              <Flex gap={12} wrap>
                <Link to={`/login?to=${back}`}>
                  <Button type="primary">Sign in to apply</Button>
                </Link>
                <Link to={`/create-account?to=${back}`}>
                  <Button>Create an account</Button>
                </Link>
              </Flex>
            </Flex>
          )}
        </Col>
        <Col xs={24} lg={10}>
          <Title level={2} style={{ fontSize: 20 }}>
            What dealers get
          </Title>
          <ul>
            {benefits.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </Col>
      </Row>
    </LandingSection>
  );
}
