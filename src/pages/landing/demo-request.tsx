import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Col, Form, Input, Result, Row } from "antd";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { type DemoRequestInput, demoRequestSchema } from "../../../contracts/public-site";
import { useGutter } from "../../components/layouts/snapshot-screen";
import { Title } from "../../components/text";
import { failureText } from "../../lib/http-errors";
import { useCreateRecord } from "../../providers/services-context";
import { applyServerErrors, FormField } from "./form-field";
import { LandingSection } from "./section";

const agenda = [
  "Your customers' custom tuning requests: stock read, logs and modifications in, revisions out.",
  "Publishing tune files per firmware, with prices and copy protection bound to the vehicle.",
  "Flashing from the app, recovery, and the flash log you see when a customer calls.",
  "Data logs: uploading, charting a million rows, comparing pulls and sharing.",
];

export function DemoRequestPage() {
  const gutter = useGutter([{ xs: 16, lg: 48 }, 24]);
  const { send, pending } = useCreateRecord("demo-requests");
  const [sent, setSent] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { control, handleSubmit, setError } = useForm<DemoRequestInput>({
    resolver: zodResolver(demoRequestSchema),
    defaultValues: { name: "", email: "", businessName: "", phone: "", country: "", platforms: "", message: "" },
  });

  const submit = handleSubmit((values) => {
    setFailure(null);
    send(values).then(
      () => setSent(true),
      (error: unknown) => {
        if (!applyServerErrors(error, setError)) setFailure(failureText(error));
      },
    );
  });

  return (
    <LandingSection
      title="Request a demo"
      lead="Run a tuning business? See how the portal handles requests, tune files, flashing and logs, with a demo dealer account set up for your platforms."
    >
      <Row gutter={gutter}>
        <Col xs={24} lg={14}>
          {sent ? (
            <Result
              status="success"
              title="Thank you, we will be in touch"
              subTitle="We reply within two working days to arrange a time for a 45-minute walkthrough."
            />
          ) : (
            <Form layout="vertical" onFinish={submit} noValidate requiredMark="optional" aria-label="Demo request form">
              {failure && <Alert type="error" showIcon message={failure} role="alert" style={{ marginBottom: 16 }} />}
              <FormField control={control} name="name" label="Your name" required>
                {(field) => <Input {...field} autoComplete="name" />}
              </FormField>
              <FormField control={control} name="email" label="Work email" required>
                {(field) => <Input {...field} type="email" autoComplete="email" />}
              </FormField>
              <FormField control={control} name="businessName" label="Business name" required>
                {(field) => <Input {...field} autoComplete="organization" />}
              </FormField>
              <FormField control={control} name="phone" label="Phone">
                {(field) => <Input {...field} type="tel" autoComplete="tel" />}
              </FormField>
              <FormField control={control} name="country" label="Country">
                {(field) => <Input {...field} autoComplete="country-name" />}
              </FormField>
              <FormField
                control={control}
                name="platforms"
                label="Platforms you tune"
                extra="For example: VAG MQB Simos 18, BMW B58, Ford EcoBoost."
              >
                {(field) => <Input {...field} />}
              </FormField>
              <FormField control={control} name="message" label="Anything else we should know">
                {(field) => <Input.TextArea {...field} rows={4} />}
              </FormField>
              <Button type="primary" htmlType="submit" loading={pending}>
                Request a demo
              </Button>
            </Form>
          )}
        </Col>
        <Col xs={24} lg={10}>
          <Title level={2} style={{ fontSize: 20 }}>
            What we will show you
          </Title>
          <ul>
            {agenda.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </Col>
      </Row>
    </LandingSection>
  );
}
