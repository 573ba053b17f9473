/**
 * What each side may do on a ticket, offered from the server's `actions` (contracts
 * TUNING_REQUEST_ACTIONS): the dealer quotes, says it is not possible, starts, delivers a
 * revision, assigns and cancels (refunding after payment); the customer pays, asks for a revision
 * with new logs, accepts or cancels before paying. Refusals show the server's sentence.
 */
import { type HttpError, useCustomMutation, useGo } from "@refinedev/core";
import { Alert, Button, Flex, Form, Input, InputNumber, Popconfirm, Select, Space, Typography } from "antd";
import { useState } from "react";
import { apiRoutes } from "../../../contracts/api-paths";
import type { Checkout } from "../../../contracts/payments";
import { currencies } from "../../../contracts/tune-files";
import { quoteActionSchema, revisionRequestActionSchema, type TuningRequest } from "../../../contracts/tuning-requests";
import { failureText, fieldMessage } from "../../lib/http-errors";
import { centsOf, formatMoney } from "../../lib/money";
import { ReasonDialog } from "../dialogs/reason-dialog";
import { Field, FormError, useContractForm } from "../resource/form";
import { LogCorrections } from "./log-corrections";
import { RevisionDelivery } from "./revision-delivery";
import { VehicleLogsSelect } from "./vehicle-logs-select";

interface Props {
  ticket: TuningRequest;
  onChanged: (ticket: TuningRequest) => void;
}

/** PATCH one action; the answer is the ticket as it now is. */
function usePatch(ticket: TuningRequest, onChanged: Props["onChanged"]) {
  const { mutate, mutation } = useCustomMutation<TuningRequest>();
  const send = (values: object, message: string | false, onError?: (failure: HttpError) => void, onDone?: () => void) =>
    mutate(
      {
        url: apiRoutes.tuningRequests.record(ticket.id),
        method: "patch",
        values,
        successNotification: message ? { type: "success", message } : false,
        errorNotification: onError ? false : undefined,
      },
      {
        onSuccess: ({ data }) => {
          onChanged(data);
          onDone?.();
        },
        onError,
      },
    );
  return { send, pending: mutation.isPending };
}

function QuoteForm({ ticket, onChanged }: Props) {
  const form = useContractForm(quoteActionSchema, {
    action: "quote",
    priceCents: ticket.quote?.priceCents ?? 30000,
    currency: ticket.quote?.currency ?? "EUR",
    expectedDays: ticket.quote?.expectedDays ?? 3,
    note: "",
  });
  const { send, pending } = usePatch(ticket, onChanged);
  const submit = form.handleSubmit((values) =>
    send(values, `${ticket.reference} quoted ${formatMoney(values.priceCents, values.currency)}`, form.showServerError),
  );
  return (
    <Form layout="vertical" onFinish={() => void submit()} aria-label="Quote">
      <FormError message={form.formError} />
      <Flex gap={12} wrap>
        <Field control={form.control} name="priceCents" label="Price" required>
          {(field) => (
            <InputNumber
              id={field.id}
              min={1}
              step={10}
              precision={2}
              value={(field.value ?? 0) / 100}
              onChange={(value) => field.onChange(centsOf(Number(value ?? 0)))}
              onBlur={field.onBlur}
              aria-label="Price"
            />
          )}
        </Field>
        <Field control={form.control} name="currency" label="Currency" required>
          {(field) => (
            <Select
              {...field}
              options={currencies.map((c) => ({ value: c, label: c }))}
              style={{ width: 100 }}
              aria-label="Currency"
            />
          )}
        </Field>
        <Field control={form.control} name="expectedDays" label="Ready in (days)" required>
          {(field) => (
            <InputNumber
              id={field.id}
              min={1}
              max={90}
              value={field.value}
              onChange={(value) => field.onChange(Number(value ?? 1))}
              onBlur={field.onBlur}
              aria-label="Ready in days"
            />
          )}
        </Field>
      </Flex>
      <Field control={form.control} name="note" label="Note to the customer">
        {(field) => <Input.TextArea {...field} rows={2} maxLength={4000} />}
      </Field>
      <Button type="primary" htmlType="submit" loading={pending}>
        {ticket.quote ? "Change the quote" : "Send the quote"}
      </Button>
    </Form>
  );
}

function Assign({ ticket, onChanged }: Props) {
  const [assignee, setAssignee] = useState(ticket.assignee ?? "");
  const { send, pending } = usePatch(ticket, onChanged);
  return (
    <Space.Compact style={{ maxWidth: 360 }}>
      <Input
        value={assignee}
        onChange={(event) => setAssignee(event.target.value)}
        placeholder="Who on your team works it"
        aria-label="Assignee"
        maxLength={80}
      />
      <Button
        loading={pending}
        onClick={() =>
          send(
            { action: "assign", assignee: assignee.trim() || null },
            assignee.trim() ? `Assigned to ${assignee.trim()}` : "Unassigned",
          )
        }
      >
        Assign
      </Button>
    </Space.Compact>
  );
}

/** Cancel or "not possible": a reason the other side is told. */
function ReasonAction({
  ticket,
  onChanged,
  action,
  label,
  explanation,
}: Props & { action: "cancel" | "decline"; label: string; explanation: string }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { send, pending } = usePatch(ticket, onChanged);
  return (
    <>
      <Button danger onClick={() => setOpen(true)}>
        {label}
      </Button>
      {open && (
        <ReasonDialog
          title={`${label}: ${ticket.reference}`}
          okText={label}
          explanation={explanation}
          required="give a reason: the other side is told it"
          sending={pending}
          error={error}
          onSubmit={(reason) =>
            send(
              { action, reason },
              `${ticket.reference}: ${label.toLowerCase()}`,
              (failure) => setError(fieldMessage(failure, "reason") ?? failureText(failure)),
              () => setOpen(false),
            )
          }
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}

function RevisionRequest({ ticket, onChanged }: Props) {
  const form = useContractForm(revisionRequestActionSchema, { action: "request-revision", note: "", logIds: [] });
  const { send, pending } = usePatch(ticket, onChanged);
  const submit = form.handleSubmit((values) =>
    send(values, `Revision ${ticket.revisions + 1} asked for`, form.showServerError, () => form.reset()),
  );
  const until = ticket.freeRevisionsUntil ? new Date(ticket.freeRevisionsUntil).toLocaleDateString() : null;
  return (
    <Form layout="vertical" onFinish={() => void submit()} aria-label="Ask for a revision">
      <FormError message={form.formError} />
      <Field
        control={form.control}
        name="note"
        label="What should change"
        required
        help={until ? `Free revisions until ${until}` : undefined}
      >
        {(field) => (
          <Input.TextArea
            {...field}
            rows={3}
            maxLength={4000}
            placeholder="e.g. knock in 5th gear above 5,500 rpm, see the new log"
          />
        )}
      </Field>
      <Field control={form.control} name="logIds" label="New logs">
        {(field) => (
          <VehicleLogsSelect
            vehicleId={ticket.vehicleId}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            label="New logs"
          />
        )}
      </Field>
      <Button htmlType="submit" loading={pending}>
        Ask for revision {ticket.revisions + 1}
      </Button>
    </Form>
  );
}

function Pay({ ticket }: { ticket: TuningRequest }) {
  const go = useGo();
  const [error, setError] = useState<string | null>(null);
  const { mutate, mutation } = useCustomMutation<Checkout>();
  const pay = () =>
    mutate(
      {
        url: apiRoutes.payments.tuningRequestOrder(),
        method: "post",
        values: { tuningRequestId: ticket.id },
        successNotification: false,
        errorNotification: false,
      },
      {
        onSuccess: ({ data }) => go({ to: data.checkoutPath ?? `/checkout/${data.order.id}` }),
        onError: (failure: HttpError) => setError(failureText(failure)),
      },
    );
  return (
    <Flex vertical gap={8}>
      <Button type="primary" onClick={pay} loading={mutation.isPending}>
        Pay {ticket.quote ? formatMoney(ticket.quote.priceCents, ticket.quote.currency) : ""}
      </Button>
      {error && <Alert type="error" showIcon message="The checkout did not open" description={error} />}
    </Flex>
  );
}

export function TicketActions({ ticket, onChanged, side }: Props & { side: "customer" | "dealer" }) {
  const can = (action: string) => ticket.actions.includes(action);
  const { send, pending } = usePatch(ticket, onChanged);
  const paid = ["paid", "in-progress", "delivered", "revision-requested"].includes(ticket.state);
  if (side === "dealer") {
    return (
      <Flex vertical gap={16}>
        {can("quote") && <QuoteForm ticket={ticket} onChanged={onChanged} />}
        {can("deliver") && <RevisionDelivery ticket={ticket} onChanged={onChanged} />}
        {can("deliver") && <LogCorrections ticket={ticket} onChanged={onChanged} />}
        <Space wrap>
          {can("start") && (
            <Flex gap={8} align="center" wrap>
              <Button
                type="primary"
                loading={pending}
                onClick={() => send({ action: "start" }, `${ticket.reference}: work started`)}
              >
                Start work
              </Button>
              <Typography.Text type="secondary">
                Tells the customer you have started and moves the request to in progress; delivering a revision does not
                need it.
              </Typography.Text>
            </Flex>
          )}
          {can("decline") && (
            <ReasonAction
              ticket={ticket}
              onChanged={onChanged}
              action="decline"
              label="Not possible"
              explanation={`The customer is told why${paid ? "; the payment is refunded in full" : ""}.`}
            />
          )}
          {(can("cancel") || can("cancel-paid")) && (
            <ReasonAction
              ticket={ticket}
              onChanged={onChanged}
              action="cancel"
              label={paid ? "Cancel and refund" : "Cancel"}
              explanation={`The customer is told why${paid ? "; the payment is refunded in full and the revisions' licence removed" : ""}.`}
            />
          )}
        </Space>
        {can("assign") && <Assign ticket={ticket} onChanged={onChanged} />}
      </Flex>
    );
  }
  return (
    <Flex vertical gap={16}>
      {ticket.state === "quoted" && <Pay ticket={ticket} />}
      {can("request-revision") && <RevisionRequest ticket={ticket} onChanged={onChanged} />}
      <Space wrap>
        {can("accept") && (
          <Popconfirm
            title={`Accept revision ${ticket.revisions}?`}
            description="The request is then closed."
            okText="Accept"
            onConfirm={() => send({ action: "accept" }, `${ticket.reference}: revision ${ticket.revisions} accepted`)}
          >
            <Button type="primary" loading={pending}>
              Accept revision {ticket.revisions}
            </Button>
          </Popconfirm>
        )}
        {can("cancel") && (
          <ReasonAction
            ticket={ticket}
            onChanged={onChanged}
            action="cancel"
            label="Cancel"
            explanation="The dealer is told why. Nothing has been paid."
          />
        )}
      </Space>
    </Flex>
  );
}
