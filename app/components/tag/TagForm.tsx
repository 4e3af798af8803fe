// The form of 'Nueva tarjeta' and 'Editar tarjeta': a plain POST form (works without JavaScript),
// enhanced by conform (validation on blur) when it runs.
import { Form, Link, useNavigation } from "react-router";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Button, Card, Flex, Grid, Heading } from "@radix-ui/themes";
import { BiSave } from "~/icons";
import { FormToken } from "~/components/FormToken";
import { CheckboxField, Field, VALIDATE_ON } from "~/components/form";
import { FormError } from "~/components/messages";
import { ReadOnlyFieldset } from "~/components/ReadOnly";
import { useLazyValidation } from "~/components/lazy-validation";
import { SelectField } from "~/components/rate/fields";
import type { TagDto } from "#contract/dto";

export type TagFormValues = { idTag: string; holderName: string; email: string; expiresOn: string; blocked: boolean; groupId: string };

export const tagToValues = (t?: TagDto): TagFormValues => ({
  idTag: t?.idTag ?? "",
  holderName: t?.holderName ?? "",
  email: t?.email ?? "",
  expiresOn: t?.expiresOn ?? "",
  blocked: t?.blocked ?? false,
  groupId: t?.groupId ?? "",
});

export function TagForm({
  formId,
  defaultValue,
  groups,
  lastResult,
  submitLabel,
  action,
  formToken,
  readOnly,
}: {
  formId: string;
  defaultValue: TagFormValues;
  groups: { id: string; name: string }[];
  lastResult?: SubmissionResult<string[]> | null;
  submitLabel: string;
  action?: string;
  formToken?: string;
  readOnly?: boolean;
}) {
  const navigation = useNavigation();
  const onValidate = useLazyValidation(() => import("./schema").then((m) => m.validateTagForm));
  const [form, fields] = useForm({ id: formId, defaultValue, lastResult: navigation.state === "idle" ? lastResult : null, onValidate, ...VALIDATE_ON });
  const busy = navigation.state === "submitting";
  return (
    <Form method="post" action={action} {...getFormProps(form)} className="tag-form">
      <FormToken value={formToken} />
      <ReadOnlyFieldset readOnly={readOnly}>
        <FormError errors={form.errors} id={form.errorId} />
        <Card size="3" asChild>
          <section aria-labelledby={`${formId}-data`}>
            <Heading as="h2" size="4" mb="4" id={`${formId}-data`}>
              Datos de la tarjeta
            </Heading>
            <Flex direction="column" gap="4">
              <Grid columns={{ initial: "1", sm: "2" }} gap="4" align="start">
                <Field meta={fields.idTag} label="Código de la tarjeta (idTag)" hint="El que envía el cargador al leerla: hasta 20 letras o números." autoComplete="off" />
                <Field meta={fields.holderName} label="Titular" placeholder="Por ejemplo: Ana Pérez" autoComplete="off" />
                <Field meta={fields.email} label="Correo del titular" type="email" hint="Opcional." autoComplete="off" />
                <Field meta={fields.expiresOn} label="Vence el" type="date" hint="Opcional: vale hasta ese día inclusive." />
              </Grid>
              <SelectField
                meta={fields.groupId}
                label="Grupo de acceso"
                hint="El grupo decide en qué estaciones puede cargar y con qué tarifa."
                options={[{ value: "", label: "Sin grupo (todas las estaciones, tarifa del conector)" }, ...groups.map((g) => ({ value: g.id, label: g.name }))]}
              />
              <CheckboxField meta={fields.blocked}>Bloqueada: los cargadores la rechazan en todas las estaciones</CheckboxField>
            </Flex>
          </section>
        </Card>
      </ReadOnlyFieldset>
      {readOnly ? null : (
        <Flex gap="3" wrap="wrap">
          <Button type="submit" size="3" disabled={busy}>
            <BiSave aria-hidden="true" /> {submitLabel}
          </Button>
          <Button asChild size="3" variant="soft" color="gray">
            <Link to="/tag">Cancelar</Link>
          </Button>
        </Flex>
      )}
    </Form>
  );
}
