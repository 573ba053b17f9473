/**
 * Repositories on /my-tunes: a dealer's private collections of tunes with their members (given
 * access by email, withdrawn with a confirmation), and for everyone the collections they were
 * given access to, which they may leave. Which tunes are in a repository is set on the tune
 * (tune-show.tsx); its members find them in their cars' storefronts.
 */
import { DeleteOutlined } from "@ant-design/icons";
import { type HttpError, useCustom, useCustomMutation } from "@refinedev/core";
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Empty,
  Flex,
  Form,
  Input,
  List,
  Popconfirm,
  Space,
  Switch,
  Tag,
  Typography,
} from "antd";
import { useState } from "react";
import { apiPaths, apiRoutes } from "../../../contracts/api-paths";
import { type Repository, type RepositoryAccess, repositoryCreateSchema } from "../../../contracts/repositories";
import { Field, FormError, SaveButton, useContractForm } from "../../components/resource/form";
import { failureText, fieldMessage } from "../../lib/http-errors";

interface Listing<T> {
  data: T[];
  total: number;
}

function NewRepository({ onMade }: { onMade: () => void }) {
  const form = useContractForm(repositoryCreateSchema, { name: "", description: "", freeForMembers: false });
  const { mutate, mutation } = useCustomMutation<Repository>();
  const submit = form.handleSubmit((values) =>
    mutate(
      {
        url: apiPaths.repositories.create,
        method: "post",
        values,
        successNotification: { type: "success", message: `Repository "${values.name}" made` },
        errorNotification: false,
      },
      {
        onSuccess: () => {
          form.reset();
          onMade();
        },
        onError: form.showServerError,
      },
    ),
  );
  return (
    <Card size="small" title="New repository">
      <Form layout="vertical" onFinish={() => void submit()} aria-label="New repository">
        <FormError message={form.formError} />
        <Field control={form.control} name="name" label="Name" required>
          {(field) => <Input {...field} maxLength={80} placeholder="e.g. Track team" />}
        </Field>
        <Field control={form.control} name="description" label="Description">
          {(field) => <Input.TextArea {...field} rows={2} maxLength={2000} />}
        </Field>
        <Field control={form.control} name="freeForMembers" label="Members get its tunes at no charge">
          {(field) => <Switch id={field.id} checked={Boolean(field.value)} onChange={field.onChange} />}
        </Field>
        <SaveButton saving={mutation.isPending}>Make repository</SaveButton>
      </Form>
    </Card>
  );
}

function AddMember({ repository, onDone }: { repository: Repository; onDone: () => void }) {
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const { mutate, mutation } = useCustomMutation<{ created: boolean }>();
  const add = () => {
    setError(null);
    mutate(
      {
        url: apiRoutes.repositories.members(repository.id),
        method: "post",
        values: { email: email.trim() },
        successNotification: false,
        errorNotification: false,
      },
      {
        onSuccess: ({ data }) => {
          setEmail("");
          if (!data.created) setError(`${email.trim()} is a member already`);
          onDone();
        },
        onError: (failure: HttpError) => setError(fieldMessage(failure, "email") ?? failureText(failure)),
      },
    );
  };
  return (
    <Form onFinish={add} aria-label={`Add a member to ${repository.name}`}>
      <Form.Item validateStatus={error ? "error" : undefined} help={error ?? undefined} style={{ marginBottom: 0 }}>
        <Space.Compact style={{ width: "100%", maxWidth: 480 }}>
          <Input
            type="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            placeholder="Customer's or dealer's account email"
            aria-label="Member email"
          />
          <Button htmlType="submit" type="primary" loading={mutation.isPending} disabled={!email.trim()}>
            Give access
          </Button>
        </Space.Compact>
      </Form.Item>
    </Form>
  );
}

function RepositoryCard({ repository, onChange }: { repository: Repository; onChange: () => void }) {
  const { mutate, mutation } = useCustomMutation();
  const [error, setError] = useState<string | null>(null);
  const send = (url: string, method: "patch" | "delete", values: object, message: string) => {
    setError(null);
    mutate(
      { url, method, values, successNotification: { type: "success", message }, errorNotification: false },
      { onSuccess: onChange, onError: (failure: HttpError) => setError(failureText(failure)) },
    );
  };
  return (
    <Card
      size="small"
      data-testid="repository"
      title={repository.name}
      extra={
        <Popconfirm
          title={`Delete "${repository.name}"?`}
          description={
            repository.tuneCount
              ? "It still holds tunes: move them out first."
              : "Its members lose access; licences they bought stay."
          }
          okText="Delete"
          okButtonProps={{ danger: true }}
          onConfirm={() =>
            send(apiRoutes.repositories.record(repository.id), "delete", {}, `Repository "${repository.name}" deleted`)
          }
        >
          <Button size="small" danger icon={<DeleteOutlined />} aria-label={`Delete ${repository.name}`} />
        </Popconfirm>
      }
    >
      <Flex vertical gap={12}>
        {repository.description && <Typography.Text type="secondary">{repository.description}</Typography.Text>}
        <Space wrap>
          <Tag>{repository.tuneCount === 1 ? "1 tune" : `${repository.tuneCount} tunes`}</Tag>
          <Checkbox
            checked={repository.freeForMembers}
            disabled={mutation.isPending}
            onChange={(event) =>
              send(
                apiRoutes.repositories.record(repository.id),
                "patch",
                { freeForMembers: event.target.checked },
                event.target.checked ? "Members now get its tunes at no charge" : "Members now pay its tunes' prices",
              )
            }
          >
            Members get its tunes at no charge
          </Checkbox>
        </Space>
        {error && <Alert type="error" showIcon message={error} />}
        <List
          size="small"
          aria-label={`Members of ${repository.name}`}
          locale={{ emptyText: "No member yet: give a customer or a dealer access by their email" }}
          dataSource={repository.members}
          renderItem={(member) => (
            <List.Item
              data-testid="repository-member"
              actions={[
                <Popconfirm
                  key="remove"
                  title={`Withdraw ${member.email ?? member.displayName ?? "this member"}'s access?`}
                  description="They are told; tunes they licensed stay theirs."
                  okText="Withdraw"
                  okButtonProps={{ danger: true }}
                  onConfirm={() =>
                    send(
                      apiRoutes.users.repositoryGrant(member.userUid, repository.id),
                      "delete",
                      {},
                      "Access withdrawn",
                    )
                  }
                >
                  <Button size="small" danger>
                    Withdraw
                  </Button>
                </Popconfirm>,
              ]}
            >
              <Space wrap>
                <Typography.Text>{member.displayName ?? member.email ?? member.userUid}</Typography.Text>
                {member.displayName && member.email && (
                  <Typography.Text type="secondary">{member.email}</Typography.Text>
                )}
                <Typography.Text type="secondary">
                  since {new Date(member.grantedAt).toLocaleDateString()}
                </Typography.Text>
              </Space>
            </List.Item>
          )}
        />
        <AddMember repository={repository} onDone={onChange} />
      </Flex>
    </Card>
  );
}

/** A dealer's repositories (an admin's view lists every dealer's). */
export function DealerRepositories() {
  const { query } = useCustom<Listing<Repository>>({ url: apiPaths.repositories.list, method: "get" });
  const refresh = () => void query.refetch();
  const repositories = query.data?.data.data ?? [];
  return (
    <Flex vertical gap={16}>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        A repository is a private collection: its tunes are offered only to the people you give access to, never in the
        open storefront. Put a tune in one from its page in your catalogue.
      </Typography.Paragraph>
      {query.isError && (
        <Alert
          type="error"
          showIcon
          message="Could not load your repositories"
          description={failureText(query.error)}
        />
      )}
      {!query.isLoading && repositories.length === 0 && <Empty description="No repository yet" />}
      {repositories.map((repository) => (
        <RepositoryCard key={repository.id} repository={repository} onChange={refresh} />
      ))}
      <NewRepository onMade={refresh} />
    </Flex>
  );
}

/** The private collections a user was given access to. */
export function RepositoryAccessList({ uid }: { uid: string }) {
  const { query } = useCustom<Listing<RepositoryAccess>>({ url: apiRoutes.users.repositoryAccess(uid), method: "get" });
  const leave = useCustomMutation();
  return (
    <Card size="small" title="Private collections you can reach">
      {query.isError && (
        <Alert type="error" showIcon message="Could not load your collections" description={failureText(query.error)} />
      )}
      <List
        aria-label="Private collections"
        loading={query.isLoading}
        locale={{ emptyText: "No dealer has given you access to a private collection" }}
        dataSource={query.data?.data.data ?? []}
        renderItem={(access) => (
          <List.Item
            data-testid="repository-access"
            actions={[
              <Popconfirm
                key="leave"
                title={`Leave "${access.name}"?`}
                description="Its tunes are no longer offered to you; licences you hold stay."
                okText="Leave"
                onConfirm={() =>
                  leave.mutate(
                    {
                      url: apiRoutes.users.repositoryGrant(uid, access.repositoryId),
                      method: "delete",
                      values: {},
                      successNotification: { type: "success", message: `You left "${access.name}"` },
                    },
                    { onSuccess: () => void query.refetch() },
                  )
                }
              >
                <Button size="small">Leave</Button>
              </Popconfirm>,
            ]}
          >
            <List.Item.Meta
              title={access.name}
              description={
                <Space wrap>
                  <span>{access.dealerName ?? "A dealer"}</span>
                  <Tag>{access.publishedTunes === 1 ? "1 tune" : `${access.publishedTunes} tunes`}</Tag>
                  {access.freeForMembers && <Tag color="green">at no charge</Tag>}
                  {access.description && <span>{access.description}</span>}
                </Space>
              }
            />
          </List.Item>
        )}
      />
    </Card>
  );
}
