/**
 * The dealer's words about their business, on their profile page: written here and shown on their
 * public dealer page at once (no review: it is not the business identity). Plain text; the line
 * breaks written are kept.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import { type HttpError, useCustom, useCustomMutation } from "@refinedev/core";
import { Alert, Button, Card, Flex, Form, Input, Skeleton, Typography } from "antd";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { apiRoutes } from "../../../contracts/api-paths";
import {
  DEALER_ABOUT_MAX_LENGTH,
  type DealerAbout,
  type DealerProfile,
  dealerAboutSchema,
} from "../../../contracts/dealers";
import { failureText } from "../../lib/http-errors";
import { applyServerErrors, FormField } from "../../pages/landing/form-field";
import { Link } from "../link";

export function DealerAboutCard({ uid }: { uid: string }) {
  const { query } = useCustom<DealerProfile>({
    url: apiRoutes.users.dealer(uid),
    method: "get",
    errorNotification: false,
  });
  const profile = query.data?.data;
  const { mutate, mutation } = useCustomMutation<DealerProfile>();
  const [failure, setFailure] = useState<string | null>(null);
  const { control, handleSubmit, setError, reset } = useForm<DealerAbout>({
    resolver: zodResolver(dealerAboutSchema, undefined, { raw: true }),
    defaultValues: { about: "" },
  });
  useEffect(() => {
    if (profile) reset({ about: profile.about ?? "" });
  }, [profile, reset]);

  if (query.isLoading)
    return (
      <Card title="About your business">
        <Skeleton active />
      </Card>
    );
  if (!profile)
    return (
      <Card title="About your business">
        <Alert
          type="error"
          showIcon
          message="Could not load your dealer profile"
          description={failureText(query.error)}
        />
      </Card>
    );

  const save = handleSubmit((values) => {
    setFailure(null);
    mutate(
      {
        url: apiRoutes.dealers.about(profile.id),
        method: "patch",
        values,
        successNotification: { type: "success", message: "About text saved" },
        errorNotification: false,
      },
      {
        onSuccess: () => void query.refetch(),
        onError: (error: HttpError) => {
          if (!applyServerErrors(error, setError)) setFailure(failureText(error));
        },
      },
    );
  });

  return (
    <Card title="About your business">
      <Flex vertical gap={16}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          A few words for customers on <Link to={`/managed-dealers/${profile.id}`}>your dealer page</Link>: what you
          tune, your workshop, how you work. It shows as soon as you save it, as plain text with your line breaks.
        </Typography.Paragraph>
        {failure && <Alert type="error" showIcon message="The text was not saved" description={failure} role="alert" />}
        <Form layout="vertical" onFinish={save} noValidate aria-label="About your business" style={{ maxWidth: 720 }}>
          <FormField control={control} name="about" label="About">
            {(field) => <Input.TextArea {...field} rows={6} showCount maxLength={DEALER_ABOUT_MAX_LENGTH} />}
          </FormField>
          <Button type="primary" htmlType="submit" loading={mutation.isPending}>
            Save about text
          </Button>
        </Form>
      </Flex>
    </Card>
  );
}
