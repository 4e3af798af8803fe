// 'Mi perfil': the company's data with its photo. Multipart, so the photo travels as a file when
// JavaScript is off; only Dueño and Administrador change it, the others see it read-only.
import { Form } from "react-router";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Badge, Button, Flex } from "@radix-ui/themes";
import { BiSave, BiTrash } from "~/icons";
import { formatCuit } from "#domain/cuit";
import { useAccess } from "~/lib/access";
import { ReadOnlyFieldset } from "~/components/ReadOnly";
import { PHOTO_FIELD, statusLabel, type Profile } from "~/lib/profile";
import { TitledCard } from "~/components/Page";
import { Field, VALIDATE_ON } from "~/components/form";
import { FormError } from "~/components/messages";
import { PhotoUploader } from "~/components/PhotoUploader";
import { useLazySchema } from "~/components/lazy-validation";
import { ReadOnlyField } from "./ReadOnlyField";

export interface CompanyCardProps {
  profile: Profile;
  storedPhoto: string | null;
  cuitEditable: boolean;
  /** The last answer of the profile form, once the page is idle. */
  lastResult: SubmissionResult<string[]> | null | undefined;
  photoError: string | undefined;
  saving: boolean;
  removing: boolean;
}

export function CompanyCard({ profile, storedPhoto, cuitEditable, lastResult, photoError, saving, removing }: CompanyCardProps) {
  const validateProfile = useLazySchema(() => import("~/lib/schemas/profile").then((m) => m.profileSchema(cuitEditable)));
  const [form, fields] = useForm({
    id: "profile",
    lastResult,
    defaultValue: {
      businessName: profile.name,
      cuit: formatCuit(profile.cuit),
      businessAddress: profile.address,
      phoneNumber: profile.phone,
    },
    onValidate: validateProfile,
    ...VALIDATE_ON,
  });
  // Only Dueño and Administrador change the company's data; everyone their own password.
  const canEdit = useAccess().can("profile.write");
  const alt = `Foto de perfil de ${profile.name || "tu empresa"}`;

  return (
    <TitledCard
      title="Datos de la empresa"
      id="profile-card"
      actions={
        profile.status ? (
          <Badge size="2" color={profile.status === "ACTIVE" ? "green" : "amber"} data-testid="profile-status">
            {statusLabel(profile.status)}
          </Badge>
        ) : null
      }
    >
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="profile" />
        <ReadOnlyFieldset readOnly={!canEdit}>
          <Flex direction="column" gap="4">
            <FormError errors={form.errors} id={form.errorId} />
            {/* Keyed by the photo: after a save or a removal the uploader starts over. */}
            {canEdit ? (
              <PhotoUploader
                key={profile.photo}
                name={PHOTO_FIELD}
                initialImage={profile.photo}
                alt={alt}
                error={photoError}
                actions={
                  storedPhoto && canEdit ? (
                    <Button type="submit" form="remove-photo" size="3" variant="soft" color="red" disabled={removing}>
                      <BiTrash aria-hidden="true" /> Quitar foto
                    </Button>
                  ) : null
                }
              />
            ) : (
              <img src={profile.photo} alt={alt} width={96} height={96} className="profile-photo-readonly" />
            )}
            <Field meta={fields.businessName} label="Nombre" autoComplete="organization" hint="Razón social o nombre de la empresa." />
            {cuitEditable ? (
              <Field meta={fields.cuit} label="CUIT" inputMode="numeric" hint="11 dígitos, con o sin guiones (por ejemplo 30-71234567-1)." />
            ) : (
              <ReadOnlyField
                id="profile-cuit"
                label="CUIT"
                value={formatCuit(profile.cuit)}
                hint="Con la empresa aprobada el CUIT no se puede cambiar. Si necesitás corregirlo, escribinos a soporte."
                testId="profile-cuit"
              />
            )}
            <Field meta={fields.businessAddress} label="Domicilio" autoComplete="street-address" hint="Calle, número, localidad y provincia." />
            <Field meta={fields.phoneNumber} label="Teléfono" type="tel" autoComplete="tel" inputMode="tel" />
            {canEdit ? (
              <Flex justify="end">
                <Button type="submit" size="3" disabled={saving}>
                  <BiSave aria-hidden="true" /> Guardar cambios
                </Button>
              </Flex>
            ) : null}
          </Flex>
        </ReadOnlyFieldset>
      </Form>
      {storedPhoto && canEdit ? (
        <Form method="post" id="remove-photo" hidden>
          <input type="hidden" name="intent" value="remove-photo" />
          <input type="hidden" name="imageUrl" value={storedPhoto} />
        </Form>
      ) : null}
    </TitledCard>
  );
}
