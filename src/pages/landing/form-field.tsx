import { Form } from "antd";
import type { ReactElement } from "react";
import { type Control, Controller, type FieldPath, type FieldValues, type UseFormSetError } from "react-hook-form";

/**
 * One react-hook-form field in antd's form layout: label tied to the input, the zod message under
 * it. The input is given `id` and the field's value and handlers.
 */
export function FormField<T extends FieldValues>({
  control,
  name,
  label,
  extra,
  required,
  children,
}: {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  extra?: string;
  required?: boolean;
  children: (field: {
    id: string;
    value: never;
    onChange: (...event: unknown[]) => void;
    onBlur: () => void;
    "aria-invalid"?: boolean;
  }) => ReactElement;
}) {
  const id = `field-${String(name)}`;
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <Form.Item
          label={label}
          htmlFor={id}
          required={required}
          extra={extra}
          validateStatus={fieldState.error ? "error" : ""}
          help={fieldState.error?.message}
        >
          {children({
            id,
            value: (field.value ?? "") as never,
            onChange: field.onChange,
            onBlur: field.onBlur,
            "aria-invalid": fieldState.error ? true : undefined,
          })}
        </Form.Item>
      )}
    />
  );
}

/** Puts the server's field messages (a 400's `data`, as Refine's `errors`) on the form's fields. */
export function applyServerErrors<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>): boolean {
  const errors = (error as { errors?: Record<string, string> } | null)?.errors;
  if (!errors) return false;
  for (const [path, message] of Object.entries(errors)) setError(path as FieldPath<T>, { type: "server", message });
  return Object.keys(errors).length > 0;
}
