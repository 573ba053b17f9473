/**
 * Forms over the contract schemas: react-hook-form with the zod schema the
 * server validates with, antd fields bound by name, and the server's field
 * errors (400/409 `data: [{ path, message }]`) put on the same fields.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import type { HttpError } from "@refinedev/core";
import { Alert, Button, Form } from "antd";
import { type ReactNode, useState } from "react";
import {
  type Control,
  Controller,
  type ControllerRenderProps,
  type DefaultValues,
  type FieldPath,
  type FieldValues,
  type UseFormReturn,
  useForm,
} from "react-hook-form";
import type { z } from "zod";
import { TagsInput } from "./record-form";

export interface ContractForm<Input extends FieldValues, Output> extends UseFormReturn<Input, unknown, Output> {
  /** A message for errors that belong to no field (or to fields not on the form). */
  formError: string | null;
  /** Puts a failed request's field errors on the fields; what is left becomes `formError`. */
  showServerError: (error: unknown) => void;
}

export function useContractForm<Schema extends z.ZodType<unknown, FieldValues>>(
  schema: Schema,
  defaultValues: DefaultValues<z.input<Schema>>,
): ContractForm<z.input<Schema>, z.output<Schema>> {
  const form = useForm<z.input<Schema>, unknown, z.output<Schema>>({
    resolver: zodResolver(schema as never) as never,
    defaultValues,
    mode: "onTouched",
  });
  const [formError, setFormError] = useState<string | null>(null);
  const showServerError = (error: unknown) => {
    const http = error as Partial<HttpError> & { description?: string; data?: unknown };
    const known = new Set(Object.keys(form.getValues() as object));
    const unplaced: string[] = [];
    for (const [path, message] of Object.entries(http.errors ?? {})) {
      const text = Array.isArray(message)
        ? message.join(", ")
        : typeof message === "string"
          ? message
          : String(message);
      // Nested paths (inside a JSON document field) are shown on the field that holds them.
      const [top, ...rest] = path.split(".");
      if (known.has(top))
        form.setError(top as FieldPath<z.input<Schema>>, {
          type: "server",
          message: rest.length ? `${rest.join(".")}: ${text}` : text,
        });
      else unplaced.push(`${path}: ${text}`);
    }
    const summary = http.description ?? http.message ?? "The request failed";
    setFormError(unplaced.length || !http.errors ? [summary, ...unplaced].join(" — ") : null);
  };
  return Object.assign(form, { formError, showServerError });
}

/** One antd form item bound to a field; its error reads the same whether zod or the server found it. */
export function Field<Values extends FieldValues, Name extends FieldPath<Values>>({
  control,
  name,
  label,
  help,
  required,
  children,
}: {
  control: Control<Values, unknown, unknown>;
  name: Name;
  label: ReactNode;
  help?: ReactNode;
  required?: boolean;
  children: (field: ControllerRenderProps<Values, Name> & { id: string }) => ReactNode;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <Form.Item
          label={label}
          required={required}
          validateStatus={fieldState.error ? "error" : undefined}
          help={fieldState.error ? errorText(fieldState.error) : help}
          htmlFor={String(name)}
        >
          {children({ ...field, id: String(name) })}
        </Form.Item>
      )}
    />
  );
}

/** The first message in a field's error, which for arrays and objects sits deeper, with its path. */
function errorText(error: unknown, path = ""): string | undefined {
  if (!error || typeof error !== "object") return undefined;
  const { message } = error as { message?: unknown };
  if (typeof message === "string" && message) return path ? `${path}: ${message}` : message;
  for (const [key, value] of Object.entries(error)) {
    if (key === "ref" || key === "type") continue;
    const found = errorText(value, path ? `${path}.${key}` : key);
    if (found) return found;
  }
  return undefined;
}

export function FormError({ message }: { message: string | null }) {
  return message ? <Alert type="error" showIcon message={message} style={{ marginBottom: 16 }} role="alert" /> : null;
}

/** The firmware ids a catalogue record applies to, typed one after another. */
export function FirmwareIdsField<Values extends FieldValues & { firmwareIds?: string[] }>({
  control,
  label = "Applies to firmware",
  help = "Empty: every firmware",
  required,
}: {
  control: Control<Values, unknown, unknown>;
  label?: ReactNode;
  help?: ReactNode;
  required?: boolean;
}) {
  return (
    <Field control={control} name={"firmwareIds" as FieldPath<Values>} label={label} help={help} required={required}>
      {(field) => <TagsInput {...field} />}
    </Field>
  );
}

export function SaveButton({
  saving,
  primary = true,
  children = "Save",
}: {
  saving: boolean;
  primary?: boolean;
  children?: ReactNode;
}) {
  return (
    <Button type={primary ? "primary" : "default"} htmlType="submit" loading={saving}>
      {children}
    </Button>
  );
}
