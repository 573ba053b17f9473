/**
 * The dealer's business identity on their profile: what stands now, the open request and the last
 * decision with its note, and "Request a change" — the new values with the documents that show
 * them (and a logo). Sending again replaces the open request.
 */
import { UploadOutlined } from "@ant-design/icons";
import { zodResolver } from "@hookform/resolvers/zod";
import { type HttpError, useCustom, useCustomMutation } from "@refinedev/core";
import { Alert, Button, Card, Descriptions, Flex, Form, Input, Skeleton, Typography, Upload } from "antd";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { apiRoutes } from "../../../contracts/api-paths";
import {
  BUSINESS_IDENTITY_LABELS,
  type BusinessIdentity,
  DOCUMENT_MAX_BYTES,
  LOGO_MAX_BYTES,
  MAX_DOCUMENTS,
  type ProfileChangeFields,
  type ProfileChangeStatus,
  profileChangeFieldsSchema,
} from "../../../contracts/profile-change-requests";
import { failureText } from "../../lib/http-errors";
import { applyServerErrors, FormField } from "../../pages/landing/form-field";
import { dealerLogoUrl, RequestFiles, RequestSummary, shown } from "./parts";

const MB = 1024 * 1024;
const when = (at: string) => new Date(at).toLocaleString();

function IdentityDescriptions({ identity }: { identity: BusinessIdentity }) {
  return (
    <Descriptions size="small" column={1} bordered>
      <Descriptions.Item label={BUSINESS_IDENTITY_LABELS.businessName}>{identity.businessName}</Descriptions.Item>
      <Descriptions.Item label={BUSINESS_IDENTITY_LABELS.registrationNumber}>
        {shown(identity.registrationNumber)}
      </Descriptions.Item>
      <Descriptions.Item label={BUSINESS_IDENTITY_LABELS.vatNumber}>{shown(identity.vatNumber)}</Descriptions.Item>
      <Descriptions.Item label={BUSINESS_IDENTITY_LABELS.address}>{shown(identity.address)}</Descriptions.Item>
      <Descriptions.Item label={BUSINESS_IDENTITY_LABELS.logo}>
        {identity.logoSha256 ? (
          <img
            src={dealerLogoUrl(identity.dealerId, identity.logoSha256)}
            alt={`${identity.businessName} logo`}
            style={{ maxHeight: 64 }}
          />
        ) : (
          "—"
        )}
      </Descriptions.Item>
    </Descriptions>
  );
}

function ChangeForm({ uid, identity, onSent }: { uid: string; identity: BusinessIdentity; onSent: () => void }) {
  const { mutate, mutation } = useCustomMutation<ProfileChangeStatus>();
  const [documents, setDocuments] = useState<File[]>([]);
  const [logo, setLogo] = useState<File | null>(null);
  const [fileErrors, setFileErrors] = useState<{ documents?: string; logo?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const { control, handleSubmit, setError } = useForm<ProfileChangeFields>({
    // Validated by the contract, sent as typed (raw): an emptied field goes as "", which clears it.
    resolver: zodResolver(profileChangeFieldsSchema, undefined, { raw: true }),
    defaultValues: {
      businessName: identity.businessName,
      registrationNumber: identity.registrationNumber ?? "",
      vatNumber: identity.vatNumber ?? "",
      address: identity.address ?? "",
      comment: "",
    },
  });

  const submit = handleSubmit((values) => {
    setFailure(null);
    const problems: typeof fileErrors = {};
    if (documents.length === 0)
      problems.documents =
        "Attach at least one document that shows the change (a company-register extract, a VAT certificate)";
    else if (documents.length > MAX_DOCUMENTS) problems.documents = `At most ${MAX_DOCUMENTS} documents`;
    else if (documents.some((file) => file.size > DOCUMENT_MAX_BYTES))
      problems.documents = `Each document is at most ${DOCUMENT_MAX_BYTES / MB} MB`;
    if (logo && logo.size > LOGO_MAX_BYTES) problems.logo = `The logo is at most ${LOGO_MAX_BYTES / MB} MB`;
    setFileErrors(problems);
    if (problems.documents || problems.logo) return;
    const form = new FormData();
    for (const [key, value] of Object.entries(values)) if (value !== undefined) form.append(key, value);
    for (const file of documents) form.append("documents", file);
    if (logo) form.append("logo", logo);
    mutate(
      {
        url: apiRoutes.users.profileChangeRequest(uid),
        method: "put",
        values: form,
        successNotification: { type: "success", message: "Your request was sent for review" },
        errorNotification: false,
      },
      {
        onSuccess: () => {
          setDocuments([]);
          setLogo(null);
          onSent();
        },
        onError: (error: HttpError) => {
          const field = (error as HttpError & { data?: { field?: string } }).data?.field;
          if (field === "documents" || field === "logo") setFileErrors({ [field]: failureText(error) });
          if (error.errors?.documents || error.errors?.logo)
            setFileErrors({
              documents: error.errors.documents as string | undefined,
              logo: error.errors.logo as string | undefined,
            });
          if (!applyServerErrors(error, setError)) setFailure(failureText(error));
        },
      },
    );
  });

  return (
    <Form layout="vertical" onFinish={submit} noValidate aria-label="Request a change" style={{ maxWidth: 560 }}>
      {failure && (
        <Alert
          type="error"
          showIcon
          message="The request was not sent"
          description={failure}
          role="alert"
          style={{ marginBottom: 16 }}
        />
      )}
      <FormField control={control} name="businessName" label={BUSINESS_IDENTITY_LABELS.businessName} required>
        {(field) => <Input {...field} autoComplete="organization" />}
      </FormField>
      <FormField control={control} name="registrationNumber" label={BUSINESS_IDENTITY_LABELS.registrationNumber}>
        {(field) => <Input {...field} />}
      </FormField>
      <FormField control={control} name="vatNumber" label={BUSINESS_IDENTITY_LABELS.vatNumber}>
        {(field) => <Input {...field} />}
      </FormField>
      <FormField control={control} name="address" label={BUSINESS_IDENTITY_LABELS.address}>
        {(field) => <Input.TextArea {...field} rows={3} autoComplete="street-address" />}
      </FormField>
      <Form.Item
        label="Documents"
        required
        extra={`PDF, PNG, JPEG or WebP, up to ${MAX_DOCUMENTS} files of ${DOCUMENT_MAX_BYTES / MB} MB each`}
        validateStatus={fileErrors.documents ? "error" : ""}
        help={fileErrors.documents}
      >
        <Upload
          multiple
          accept="application/pdf,image/png,image/jpeg,image/webp"
          fileList={documents.map((file, i) => ({
            uid: `${i}-${file.name}`,
            name: file.name,
            status: "done" as const,
          }))}
          beforeUpload={(file) => {
            setDocuments((chosen) => [...chosen, file]);
            return false;
          }}
          onRemove={(removed) =>
            setDocuments((chosen) => chosen.filter((file, i) => `${i}-${file.name}` !== removed.uid))
          }
        >
          <Button icon={<UploadOutlined />}>Add documents</Button>
        </Upload>
      </Form.Item>
      <Form.Item
        label="New logo (optional)"
        extra={`PNG, JPEG or WebP up to ${LOGO_MAX_BYTES / MB} MB; shown at most 256 pixels wide. SVG is not accepted.`}
        validateStatus={fileErrors.logo ? "error" : ""}
        help={fileErrors.logo}
      >
        <Upload
          accept="image/png,image/jpeg,image/webp"
          maxCount={1}
          fileList={logo ? [{ uid: "logo", name: logo.name, status: "done" as const }] : []}
          beforeUpload={(file) => {
            setLogo(file);
            return false;
          }}
          onRemove={() => setLogo(null)}
        >
          <Button icon={<UploadOutlined />}>Choose a logo</Button>
        </Upload>
      </Form.Item>
      <FormField control={control} name="comment" label="Note to the reviewer (optional)">
        {(field) => <Input.TextArea {...field} rows={2} maxLength={1000} />}
      </FormField>
      <Button type="primary" htmlType="submit" loading={mutation.isPending}>
        Send for review
      </Button>
    </Form>
  );
}

/** The card on the dealer's profile page. */
export function BusinessIdentityCard({ uid }: { uid: string }) {
  const { query } = useCustom<ProfileChangeStatus>({
    url: apiRoutes.users.profileChangeRequest(uid),
    method: "get",
    errorNotification: false,
  });
  const [editing, setEditing] = useState(false);
  const status = query.data?.data ?? null;
  if (query.isLoading)
    return (
      <Card title="Business identity">
        <Skeleton active />
      </Card>
    );
  if (!status)
    return (
      <Card title="Business identity">
        <Alert
          type="error"
          showIcon
          message="Could not load your business identity"
          description={failureText(query.error)}
        />
      </Card>
    );
  const { open, lastDecided } = status;
  return (
    <Card
      title="Business identity"
      extra={
        !editing && (
          <Button onClick={() => setEditing(true)}>{open ? "Replace the request" : "Request a change"}</Button>
        )
      }
    >
      <Flex vertical gap={16}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          Your legal name, company number, VAT id, address and logo change only after an administrator checks the
          documents you send with the change.
        </Typography.Paragraph>
        <IdentityDescriptions identity={status.identity} />
        {open && (
          <Alert
            type="info"
            showIcon
            message={`Change requested on ${when(open.submittedAt)}: waiting for review`}
            description={
              <Flex vertical gap={8}>
                <RequestSummary request={open} />
                <RequestFiles request={open} />
              </Flex>
            }
          />
        )}
        {lastDecided && (
          <Alert
            type={lastDecided.state === "approved" ? "success" : "warning"}
            showIcon
            message={`Your request of ${when(lastDecided.submittedAt)} was ${lastDecided.state === "approved" ? "approved" : "rejected"} on ${when(lastDecided.decidedAt ?? lastDecided.submittedAt)}`}
            description={
              <Flex vertical gap={8}>
                <RequestSummary request={lastDecided} />
                {lastDecided.decisionNote && <Typography.Text>Note: {lastDecided.decisionNote}</Typography.Text>}
              </Flex>
            }
          />
        )}
        {editing && (
          <ChangeForm
            uid={uid}
            identity={status.identity}
            onSent={() => {
              setEditing(false);
              void query.refetch();
            }}
          />
        )}
      </Flex>
    </Card>
  );
}
