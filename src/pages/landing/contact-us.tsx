import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Col, Form, Input, Result, Row, Select } from "antd";
import { useState } from "react";
import { useForm } from "react-hook-form";
import {
  type ContactRequestInput,
  contactRequestSchema,
  contactTopicLabels,
  contactTopics,
} from "../../../contracts/public-site";
import { useGutter } from "../../components/layouts/snapshot-screen";
import { Link } from "../../components/link";
import { Paragraph, Title } from "../../components/text";
import { failureText } from "../../lib/http-errors";
import { useCreateRecord } from "../../providers/services-context";
import { applyServerErrors, FormField } from "./form-field";
import { LandingSection } from "./section";

export function ContactUsPage() {
  const gutter = useGutter([{ xs: 16, lg: 48 }, 24]);
  const { send, pending } = useCreateRecord("contact-requests");
  const [sent, setSent] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { control, handleSubmit, setError, reset } = useForm<ContactRequestInput>({
    resolver: zodResolver(contactRequestSchema),
    defaultValues: { name: "", email: "", topic: undefined, vehicle: "", message: "" },
  });

  const submit = handleSubmit((values) => {
    setFailure(null);
    send(values).then(
      () => {
        setSent(true);
        reset();
      },
      (error: unknown) => {
        if (!applyServerErrors(error, setError)) setFailure(failureText(error));
      },
    );
  });

  return (
    <LandingSection
      title="Contact us"
      lead="Questions about your car, a tune, flashing or your account? Write to us: a person who tunes cars answers, usually within one working day."
    >
      <Row gutter={gutter}>
        <Col xs={24} lg={14}>
          {sent ? (
            <Result
              status="success"
              title="Thank you, your message is on its way"
              subTitle="We answer by email, usually within one working day."
              extra={<Button onClick={() => setSent(false)}>Send another message</Button>}
            />
          ) : (
            <Form layout="vertical" onFinish={submit} noValidate requiredMark="optional" aria-label="Contact form">
              {failure && <Alert type="error" showIcon message={failure} role="alert" style={{ marginBottom: 16 }} />}
              <FormField control={control} name="name" label="Your name" required>
                {(field) => <Input {...field} autoComplete="name" />}
              </FormField>
              <FormField control={control} name="email" label="Email" required>
                {(field) => <Input {...field} type="email" autoComplete="email" />}
              </FormField>
              <FormField control={control} name="topic" label="What is it about?" required>
                {({ value, ...field }) => (
                  <Select
                    {...field}
                    value={(value as string) || undefined}
                    placeholder="Choose a topic"
                    options={contactTopics.map((topic) => ({ value: topic, label: contactTopicLabels[topic] }))}
                  />
                )}
              </FormField>
              <FormField
                control={control}
                name="vehicle"
                label="Vehicle"
                extra="Make, model, year and engine; the VIN helps for support questions."
              >
                {(field) => <Input {...field} />}
              </FormField>
              <FormField control={control} name="message" label="Message" required>
                {(field) => <Input.TextArea {...field} rows={6} showCount maxLength={5000} />}
              </FormField>
              <Button type="primary" htmlType="submit" loading={pending}>
                Send message
              </Button>
            </Form>
          )}
        </Col>
        <Col xs={24} lg={10}>
          <Title level={2} style={{ fontSize: 20 }}>
            Before you write
          </Title>
          <Paragraph>
            For a flash that stopped part-way, do not unplug the adapter or switch the ignition off: open the app again,
            it resumes or restores your stock software. The <Link to="/docs/flashing">flashing guide</Link> explains
            recovery step by step.
          </Paragraph>
          <Paragraph>
            For a question about a tune you bought, include the flash log from the app: it names the ECU, the software
            and each step.
          </Paragraph>
          <Paragraph>
            Run a tuning business? <Link to="/demo-request">Request a demo</Link> or{" "}
            <Link to="/dealer-account-request">apply for a dealer account</Link>.
          </Paragraph>
        </Col>
      </Row>
    </LandingSection>
  );
}
