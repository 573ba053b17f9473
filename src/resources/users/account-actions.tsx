/**
 * What support does to an account, each behind a confirmation that says what happens: change the
 * role, disable or enable, sign out everywhere, send a password reset, delete. Role and status
 * changes ask for the reason the audit keeps and the user reads; the server refuses what would
 * lock support out (its refusal shows in the dialog).
 */
import { type HttpError, useCustomMutation } from "@refinedev/core";
import { App, Button, Flex, Input, Modal, Select, Typography } from "antd";
import { useState } from "react";
import { type Account, type Role, roleSchema } from "../../../contracts/account";
import { apiRoutes } from "../../../contracts/api-paths";
import { ReasonDialog } from "../../components/dialogs/reason-dialog";
import { failureText, fieldMessage } from "../../lib/http-errors";

type Pending = { kind: "role"; role: Role } | { kind: "disable" } | { kind: "enable" } | null;

const ROLE_EFFECTS: Record<Role, string> = {
  customer:
    "They keep their cars, logs and licences; a dealer's profile is suspended and their tunes leave the directory.",
  dealer: "They sell tunes and work tuning requests.",
  admin: "They manage the catalogue, users and servers.",
};

/** What becoming a dealer does to the profile the user has (or has not): said before the admin confirms. */
function dealerProfileEffect(dealer: Account["profile"]["dealer"]): string {
  if (!dealer) return "They have no dealer profile: one is opened under the business name below, approved.";
  if (dealer.status === "approved") return `Their dealer profile ${dealer.businessName} is already approved.`;
  if (dealer.status === "pending")
    return `Their dealer application for ${dealer.businessName} is pending: changing the role approves it.`;
  return `Their dealer profile ${dealer.businessName} is ${dealer.status}: changing the role approves it.`;
}

export function AccountActions({
  account,
  onChanged,
  onDeleted,
}: {
  account: Account;
  onChanged: () => void;
  onDeleted: () => void;
}) {
  const { message, modal } = App.useApp();
  const [pending, setPending] = useState<Pending>(null);
  const [error, setError] = useState<string | null>(null);
  const [role, setRole] = useState<Role>(account.role);
  const [deleting, setDeleting] = useState(false);
  const [typed, setTyped] = useState("");
  const [businessName, setBusinessName] = useState("");
  const { mutate, mutation } = useCustomMutation();
  const who = account.email ?? account.displayName ?? account.uid;

  const send = (url: string, method: "patch" | "post" | "delete", values: object, done: string, after: () => void) =>
    mutate(
      { url, method, values, successNotification: false, errorNotification: false },
      {
        onSuccess: () => {
          setError(null);
          setPending(null);
          // Said here rather than by the mutation's notification: the page reloads the account under it.
          void message.success(done);
          after();
        },
        onError: (failure: HttpError) => {
          // The reason field's own message reads alone; any other refusal is the server's whole sentence.
          setError(fieldMessage(failure, "reason") ?? failureText(failure));
          if (!pending) void message.error(failureText(failure));
        },
      },
    );
  const needsProfile = pending?.kind === "role" && pending.role === "dealer" && !account.profile.dealer;

  const submitReason = (reason: string) => {
    if (!pending) return;
    if (needsProfile && businessName.trim().length < 2)
      return setError("Give the business name their dealer profile opens under.");
    const values =
      pending.kind === "role"
        ? { role: pending.role, reason, ...(needsProfile && { businessName: businessName.trim() }) }
        : { disabled: pending.kind === "disable", reason };
    const done =
      pending.kind === "role"
        ? `${who} is now ${pending.role}`
        : pending.kind === "disable"
          ? `${who} is disabled`
          : `${who} can sign in again`;
    send(apiRoutes.users.record(account.uid), "patch", values, done, onChanged);
  };

  const confirm = (title: string, content: string, okText: string, run: () => void) =>
    modal.confirm({ title, content, okText, onOk: run });

  if (account.deletedAt)
    return (
      <Typography.Text type="secondary">This account was deleted: nothing more can be done to it.</Typography.Text>
    );
  return (
    <Flex gap={8} wrap align="center">
      <Select<Role>
        aria-label="New role"
        value={role}
        style={{ width: 140 }}
        options={roleSchema.options.map((value) => ({ value, label: value }))}
        onChange={setRole}
      />
      <Button disabled={role === account.role} onClick={() => setPending({ kind: "role", role })}>
        Change role
      </Button>
      {account.disabled ? (
        <Button onClick={() => setPending({ kind: "enable" })}>Enable</Button>
      ) : (
        <Button danger onClick={() => setPending({ kind: "disable" })}>
          Disable
        </Button>
      )}
      <Button
        onClick={() =>
          confirm(
            `Sign ${who} out everywhere?`,
            "Every device they are signed in on is signed out now; they can sign in again.",
            "Sign out everywhere",
            () =>
              send(
                apiRoutes.users.revokeSessions(account.uid),
                "post",
                {},
                `${who} is signed out everywhere`,
                onChanged,
              ),
          )
        }
      >
        Sign out everywhere
      </Button>
      {account.email && (
        <Button
          onClick={() =>
            confirm(
              `Send ${who} a password reset?`,
              `An email with a link to choose a new password goes to ${account.email}.`,
              "Send",
              () =>
                send(
                  apiRoutes.account.passwordResetEmail(account.uid),
                  "post",
                  {},
                  `Password reset sent to ${account.email}`,
                  () => undefined,
                ),
            )
          }
        >
          Send password reset
        </Button>
      )}
      <Button danger type="primary" onClick={() => setDeleting(true)}>
        Delete account
      </Button>
      {pending && (
        <ReasonDialog
          title={
            pending.kind === "role"
              ? `Make ${who} ${pending.role}`
              : pending.kind === "disable"
                ? `Disable ${who}`
                : `Enable ${who}`
          }
          okText={pending.kind === "role" ? "Change role" : pending.kind === "disable" ? "Disable" : "Enable"}
          danger={pending.kind !== "enable"}
          explanation={
            pending.kind === "role"
              ? `${pending.role === "dealer" ? `${dealerProfileEffect(account.profile.dealer)} ` : ""}${ROLE_EFFECTS[pending.role]} Their open app switches at once; they are told why.`
              : pending.kind === "disable"
                ? "They are signed out everywhere at once and cannot sign in until enabled. They are told why."
                : "They can sign in again with their password."
          }
          required="say why in a few words (the audit keeps it, and the user reads it)"
          sending={mutation.isPending}
          error={error}
          onSubmit={submitReason}
          onClose={() => {
            setPending(null);
            setError(null);
          }}
        >
          {needsProfile && (
            <Flex vertical gap={4}>
              <Typography.Text strong>Business name</Typography.Text>
              <Input
                aria-label="Business name"
                maxLength={120}
                value={businessName}
                onChange={(event) => setBusinessName(event.target.value)}
              />
            </Flex>
          )}
        </ReasonDialog>
      )}
      <Modal
        open={deleting}
        title={`Delete ${who}?`}
        okText="Delete the account"
        okButtonProps={{
          danger: true,
          disabled: typed.trim().toLowerCase() !== (account.email ?? account.uid).toLowerCase(),
        }}
        confirmLoading={mutation.isPending}
        onCancel={() => setDeleting(false)}
        onOk={() =>
          send(apiRoutes.users.record(account.uid), "delete", {}, `${who} is deleted`, () => {
            setDeleting(false);
            onDeleted();
          })
        }
        destroyOnHidden
      >
        <Flex vertical gap={8}>
          <Typography.Paragraph>
            Their sign-in, cars, logs and tunes are removed. Orders, the ledger and the audit keep the account without
            who they were. This cannot be undone.
          </Typography.Paragraph>
          <Typography.Text>Type {account.email ? "their email" : "the user id"} to confirm:</Typography.Text>
          <Input
            aria-label="Confirm the account to delete"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            placeholder={account.email ?? account.uid}
          />
        </Flex>
      </Modal>
    </Flex>
  );
}
