// 'Mi perfil' (issue 5; spec §3, §4, §5, §7, §8): the company profile with its photo, and the
// account (e-mail, "Cambiar contraseña"). Every form posts without JavaScript; the profile form
// is multipart so the photo travels as a file when JavaScript is off.
import { useEffect } from "react";
import { data, Form, useNavigation } from "react-router";
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Badge, Box, Button, Flex, Grid, Text, TextField } from "@radix-ui/themes";
import { BiSave, BiTrash, BiKey, BiLogOut } from "~/icons";
import { formatCuit } from "#domain/cuit";
import { pageMeta } from "~/lib/meta";
import { useAccess } from "~/lib/access";
import { ReadOnlyFieldset } from "~/components/ReadOnly";
import { createApiClient, readJson, type ApiProblem } from "~/lib/api.server";
import { clientKey, identityClient, requireActiveBusiness, requireMember, requireUserSession } from "~/lib/auth.server";
import { identityErrorMessage, isBadCredentials } from "~/lib/identity.server";
import { commitSession } from "~/lib/session.server";
import { clearLoginFailures, consume, countFailure, loginChecks, passRetryAfter, retryAfterHeaders } from "~/lib/rate-limit.server";
import { dataWithError, dataWithSuccess, redirectWithSuccess } from "~/lib/toast.server";
import {
  BLANK_PHOTO,
  IMAGE_MESSAGES,
  PHOTO_FIELD,
  PROFILE_FIELDS,
  isCuitEditable,
  profileMessages,
  statusLabel,
  toProfile,
  type BusinessUser,
} from "~/lib/profile";
import { imageFormData, readForm, readImageUpload } from "~/lib/profile.server";
import { PageHeader, TitledCard } from "~/components/Page";
import { Field, VALIDATE_ON } from "~/components/form";
import { FormError } from "~/components/messages";
import { PhotoUploader } from "~/components/PhotoUploader";
import { PASSWORD_HINT } from "~/lib/auth-messages";
import { passwordChangeSchema, profileSchema } from "~/lib/schemas/profile";
import { useLazySchema } from "~/components/lazy-validation";
import { appContext } from "~/lib/context";
import type { Route } from "./+types/user";

export const meta = pageMeta("Mi perfil");

/** A refused password check (429) says when to try again. */
export const headers = passRetryAfter;

export const MESSAGES = {
  loadFailed: "No pudimos cargar los datos de tu empresa. Probá de nuevo en unos minutos.",
  saved: "Guardamos los cambios de tu perfil.",
  saveFailed: "No pudimos guardar los cambios. Probá de nuevo en unos minutos.",
  unreachable: "No pudimos comunicarnos con el servidor. Probá de nuevo en unos minutos.",
  photoRemoved: "Quitamos la foto de perfil.",
  photoRemoveFailed: "No pudimos quitar la foto. Probá de nuevo en unos minutos.",
  passwordChanged: "Listo, tu contraseña se actualizó.",
  sessionMismatch: "La contraseña no corresponde a la cuenta con la que ingresaste.",
} as const;

/** Spec §8: failures to fetch or update the user or the image are logged in Spanish. */
function logFailure(what: string, detail: unknown) {
  console.error(`Mi perfil: ${what}`, detail);
}

type Intent = "profile" | "password" | "remove-photo";

interface ActionResult {
  intent: Intent;
  result?: SubmissionResult<string[]>;
  photoError?: string;
  /** Logged in the browser console too (spec §8). */
  logged?: string;
  /** The status of the failure (the API's, passed through). */
  status?: number;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireMember(request, context); // the whole guard and the screen's rule (memoized with the layout's)
  const { user, headers } = await requireUserSession(request, context);
  const identity = { displayName: user.displayName, photoUrl: user.photoUrl };
  const api = createApiClient(context, user.idToken);
  let business: BusinessUser | undefined;
  let logged: string | undefined;
  try {
    const response = await api.get("/Business/BusinessUser");
    if (response.ok) business = await readJson<BusinessUser>(response);
    else {
      const problem = await readJson<ApiProblem>(response);
      logged = `no se pudo obtener el perfil de la empresa (${response.status}${problem?.title ? `: ${problem.title}` : ""})`;
    }
  } catch (error) {
    logged = `no se pudo obtener el perfil de la empresa (${error instanceof Error ? error.message : "error de red"})`;
  }
  if (logged) logFailure(logged, "");
  const profile = toProfile(business, identity);
  return data(
    {
      loaded: Boolean(business),
      logged,
      profile,
      email: business?.email || user.email,
      /** The photo stored by the API (the one "Quitar foto" removes); none for the identity's or the blank one. */
      storedPhoto: business?.photoUrl || null,
      cuitEditable: isCuitEditable(profile.status),
    },
    { headers }
  );
}

function withoutFields(formData: FormData, names: string[]): FormData {
  const copy = new FormData();
  for (const [key, value] of formData) if (!names.includes(key) && typeof value === "string") copy.append(key, value);
  return copy;
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireMember(request, context); // the whole guard (memoized) and the rule of the form's intent
  const { user, session, headers } = await requireUserSession(request, context);
  const formData = await readForm(request);
  /**
   * An error toast with the API's status passed through. With JavaScript the status goes in the
   * payload and the response is 200: React Router does not revalidate after a 4xx/5xx action, so the
   * root loader would not pick the toast up until the next navigation.
   */
  const fail = (payload: ActionResult, message: string, status: number) =>
    dataWithError<ActionResult>(context, { ...payload, status }, message, { status: appContext(context).isDataRequest ? 200 : status, headers });
  const intent = String(formData.get("intent") ?? "profile") as Intent;
  if (intent === "password") return changePassword();
  if (intent === "remove-photo") return removePhoto();
  return saveProfile();

  async function saveProfile() {
    const { business } = await requireActiveBusiness(request, context);
    const cuitEditable = isCuitEditable(business.status ?? "");
    const fields = withoutFields(formData, [PHOTO_FIELD, "intent"]);
    if (!cuitEditable) fields.delete("cuit");
    const submission = parseWithZod(fields, {
      schema: profileSchema(cuitEditable),
    });
    if (submission.status !== "success") {
      return data<ActionResult>({ intent: "profile", result: submission.reply() }, { status: 400, headers });
    }

    // The photo first, checked like the browser does (spec §5), so a refused image changes nothing.
    const upload = await readImageUpload(formData.getAll(PHOTO_FIELD));
    if (upload.kind === "error") {
      return fail(
        {
          intent: "profile",
          result: submission.reply(),
          photoError: upload.message,
        },
        upload.message,
        400
      );
    }

    const api = createApiClient(context, user.idToken);
    let photoUrl: string | undefined;
    if (upload.kind === "ok") {
      let response: Response;
      try {
        response = await api.patch("/Business/Images/ProfilePicture", imageFormData(upload.image));
      } catch (error) {
        const logged = `no se pudo subir la foto de perfil (${error instanceof Error ? error.message : "error de red"})`;
        logFailure(logged, "");
        return fail({ intent: "profile", result: submission.reply(), logged }, MESSAGES.unreachable, 503);
      }
      if (!response.ok) {
        const problem = await readJson<ApiProblem>(response);
        const message = problem?.errors?.Image?.[0] || problem?.title || IMAGE_MESSAGES.unreadable;
        const logged = `no se pudo subir la foto de perfil (${response.status}: ${message})`;
        logFailure(logged, "");
        return fail(
          {
            intent: "profile",
            result: submission.reply(),
            photoError: message,
            logged,
          },
          message,
          response.status
        );
      }
      photoUrl = (await readJson<{ photoUrl?: string }>(response))?.photoUrl;
    }

    const { businessName, businessAddress, phoneNumber } = submission.value;
    const cuit = cuitEditable ? submission.value.cuit : undefined;
    const body = {
      businessName,
      businessAddress,
      phoneNumber,
      ...(cuit ? { cuit } : {}),
      ...(photoUrl ? { photoUrl } : {}),
    };
    let response: Response;
    try {
      response = await api.patch("/Business/BusinessUser/Update", body);
    } catch (error) {
      const logged = `no se pudo actualizar el perfil de la empresa (${error instanceof Error ? error.message : "error de red"})`;
      logFailure(logged, "");
      return fail({ intent: "profile", result: submission.reply(), logged }, MESSAGES.unreachable, 503);
    }
    if (!response.ok) {
      const problem = await readJson<ApiProblem>(response);
      const fieldErrors: Record<string, string[]> = {};
      for (const [field, errors] of Object.entries(problem?.errors ?? {})) {
        if ((PROFILE_FIELDS as readonly string[]).includes(field) && errors?.length) fieldErrors[field] = [errors[0]];
      }
      const message = problem?.title || MESSAGES.saveFailed;
      const logged = `no se pudo actualizar el perfil de la empresa (${response.status}: ${message})`;
      logFailure(logged, "");
      const reply = Object.keys(fieldErrors).length ? submission.reply({ fieldErrors }) : submission.reply({ formErrors: [message] });
      return fail({ intent: "profile", result: reply, logged }, message, response.status);
    }
    return redirectWithSuccess("/user", MESSAGES.saved, { headers });
  }

  async function removePhoto() {
    const imageUrl = String(formData.get("imageUrl") ?? "").trim();
    if (!imageUrl || imageUrl === BLANK_PHOTO) return redirectWithSuccess("/user", MESSAGES.photoRemoved, { headers });
    let response: Response;
    try {
      response = await createApiClient(context, user.idToken).delete("/Business/Images/ProfilePicture", { imageUrl });
    } catch (error) {
      const logged = `no se pudo quitar la foto de perfil (${error instanceof Error ? error.message : "error de red"})`;
      logFailure(logged, "");
      return fail({ intent: "remove-photo", logged }, MESSAGES.unreachable, 503);
    }
    if (!response.ok) {
      const problem = await readJson<ApiProblem>(response);
      const message = problem?.title || MESSAGES.photoRemoveFailed;
      const logged = `no se pudo quitar la foto de perfil (${response.status}: ${message})`;
      logFailure(logged, "");
      return fail({ intent: "remove-photo", logged }, message, response.status);
    }
    return redirectWithSuccess("/user", MESSAGES.photoRemoved, { headers });
  }

  async function changePassword() {
    const hideFields = ["currentPassword", "newPassword", "confirmPassword"];
    const submission = parseWithZod(withoutFields(formData, ["intent"]), {
      schema: passwordChangeSchema,
    });
    if (submission.status !== "success") {
      return data<ActionResult>({ intent: "password", result: submission.reply({ hideFields }) }, { status: 400, headers });
    }
    // Checking the current password is a sign-in: it shares the login's limits.
    const checks = loginChecks(user.email, clientKey(context));
    const limited = await consume(checks, { count: false });
    if (limited) {
      const refused = new Headers(headers);
      for (const [name, value] of Object.entries(retryAfterHeaders(limited))) refused.set(name, value);
      return data<ActionResult>(
        {
          intent: "password",
          result: submission.reply({
            formErrors: [limited.message],
            hideFields,
          }),
        },
        { status: 429, headers: refused }
      );
    }
    const { currentPassword, newPassword } = submission.value;
    const identity = identityClient(context);
    let idToken: string;
    try {
      const signedIn = await identity.signInWithPassword(user.email, currentPassword);
      if (signedIn.uid !== user.uid) {
        return data<ActionResult>(
          {
            intent: "password",
            result: submission.reply({
              formErrors: [MESSAGES.sessionMismatch],
              hideFields,
            }),
          },
          { status: 400, headers }
        );
      }
      idToken = signedIn.idToken;
    } catch (error) {
      if (isBadCredentials(error)) {
        await countFailure(checks);
        return data<ActionResult>(
          {
            intent: "password",
            result: submission.reply({
              fieldErrors: {
                currentPassword: [profileMessages.currentPasswordWrong],
              },
              hideFields,
            }),
          },
          { status: 400, headers }
        );
      }
      return passwordFailure(
        error,
        submission.reply({
          formErrors: [identityErrorMessage(error).message],
          hideFields,
        })
      );
    }
    try {
      // Firebase revokes older sessions on a password change: keep this one with new tokens.
      // The tokens the change returns carry the time of the last sign-in (auth_time); when that
      // fell in an earlier second than the change, the revocation check refuses them and the
      // next page signed the user out. A sign-in with the new password dates them after it.
      const changed = await identity.changePassword(idToken, newPassword);
      const fresh = await identity.signInWithPassword(user.email, newPassword).catch(() => changed);
      session.set("user", {
        ...user,
        idToken: fresh.idToken,
        refreshToken: fresh.refreshToken,
        expiresAt: fresh.expiresAt,
      });
    } catch (error) {
      const { field, message } = identityErrorMessage(error);
      const reply =
        field === "password"
          ? submission.reply({
              fieldErrors: { newPassword: [message] },
              hideFields,
            })
          : submission.reply({ formErrors: [message], hideFields });
      return passwordFailure(error, reply, field === "password" ? 400 : 503);
    }
    await clearLoginFailures(user.email, clientKey(context));
    const cookie = { "Set-Cookie": await commitSession(session) };
    // Without JavaScript, go through a redirect: the layout loader of this same response would
    // still hold the old (now revoked) token and sign the user out.
    if (!appContext(context).isDataRequest) return redirectWithSuccess("/user", MESSAGES.passwordChanged, { headers: cookie });
    return dataWithSuccess<ActionResult>(
      context,
      { intent: "password", result: submission.reply({ resetForm: true }) },
      MESSAGES.passwordChanged,
      { headers: cookie }
    );
  }

  function passwordFailure(error: unknown, result: SubmissionResult<string[]>, status = 503) {
    const code = error instanceof Error && "code" in error ? String((error as { code: unknown }).code) : "desconocido";
    const logged = `no se pudo cambiar la contraseña (${code})`;
    logFailure(logged, "");
    const message = result.error?.[""]?.[0] ?? identityErrorMessage(error).message;
    return fail({ intent: "password", result, logged }, message, status);
  }
}

/** A labelled value the user cannot change here (the account e-mail; the CUIT of an approved company). */
function ReadOnlyField({ id, label, value, hint, testId }: { id: string; label: string; value: string; hint?: string; testId?: string }) {
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {label}
      </Text>
      <TextField.Root id={id} value={value} readOnly size="3" variant="soft" color="gray" aria-describedby={hintId} data-testid={testId} />
      {/* The same slot as the editable fields' (FieldBelow), so the spacing matches theirs. */}
      <div className="field-below">
        {hint ? (
          <Text as="div" id={hintId} size="1" color="gray">
            {hint}
          </Text>
        ) : null}
      </div>
    </Flex>
  );
}

export default function UserProfile({ loaderData, actionData: result }: Route.ComponentProps) {
  const { loaded, logged, profile, email, storedPhoto, cuitEditable } = loaderData;
  const actionData = result as ActionResult | undefined;
  const navigation = useNavigation();
  const idle = navigation.state === "idle";
  const submitting = (intent: Intent) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;

  // Spec §8: the failure is also logged in the browser's console, in Spanish.
  useEffect(() => {
    if (logged) console.error(`Mi perfil: ${logged}`);
  }, [logged]);
  useEffect(() => {
    if (actionData?.logged) console.error(`Mi perfil: ${actionData.logged}`);
  }, [actionData]);

  const validateProfile = useLazySchema(() => import("~/lib/schemas/profile").then((m) => m.profileSchema(cuitEditable)));
  const validatePassword = useLazySchema(() => import("~/lib/schemas/profile").then((m) => m.passwordChangeSchema));
  const [form, fields] = useForm({
    id: "profile",
    lastResult: idle && actionData?.intent === "profile" ? actionData.result : null,
    defaultValue: {
      businessName: profile.name,
      cuit: formatCuit(profile.cuit),
      businessAddress: profile.address,
      phoneNumber: profile.phone,
    },
    onValidate: validateProfile,
    ...VALIDATE_ON,
  });

  const [passwordForm, passwordFields] = useForm({
    id: "password",
    lastResult: idle && actionData?.intent === "password" ? actionData.result : null,
    onValidate: validatePassword,
    ...VALIDATE_ON,
  });

  const photoError = idle && actionData?.intent === "profile" ? actionData.photoError : undefined;
  // Issue 26: only Dueño and Administrador change the company's data; everyone their own password.
  const canEdit = useAccess().can("profile.write");

  return (
    <>
      <PageHeader title="Mi perfil" description="Los datos de tu empresa y de tu cuenta." />
      {!loaded ? (
        <Box mb="4">
          <FormError errors={[MESSAGES.loadFailed]} />
        </Box>
      ) : null}
      <Grid columns={{ initial: "1", md: "3" }} gap="5" align="start">
        {loaded ? (
          <Box gridColumn={{ initial: "1", md: "span 2" }}>
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
                        alt={`Foto de perfil de ${profile.name || "tu empresa"}`}
                        error={photoError}
                        actions={
                          storedPhoto && canEdit ? (
                            <Button type="submit" form="remove-photo" size="3" variant="soft" color="red" disabled={submitting("remove-photo")}>
                              <BiTrash aria-hidden="true" /> Quitar foto
                            </Button>
                          ) : null
                        }
                      />
                    ) : (
                      <img src={profile.photo} alt={`Foto de perfil de ${profile.name || "tu empresa"}`} width={96} height={96} className="profile-photo-readonly" />
                    )}
                    <Field
                      meta={fields.businessName}
                      label="Nombre"
                      autoComplete="organization"
                      hint="Razón social o nombre de la empresa."
                    />
                    {cuitEditable ? (
                      <Field
                        meta={fields.cuit}
                        label="CUIT"
                        inputMode="numeric"
                        hint="11 dígitos, con o sin guiones (por ejemplo 30-71234567-1)."
                      />
                    ) : (
                      <ReadOnlyField
                        id="profile-cuit"
                        label="CUIT"
                        value={formatCuit(profile.cuit)}
                        hint="Con la empresa aprobada el CUIT no se puede cambiar. Si necesitás corregirlo, escribinos a soporte."
                        testId="profile-cuit"
                      />
                    )}
                    <Field
                      meta={fields.businessAddress}
                      label="Domicilio"
                      autoComplete="street-address"
                      hint="Calle, número, localidad y provincia."
                    />
                    <Field meta={fields.phoneNumber} label="Teléfono" type="tel" autoComplete="tel" inputMode="tel" />
                    {canEdit ? (
                      <Flex justify="end">
                        <Button type="submit" size="3" disabled={submitting("profile")}>
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
          </Box>
        ) : null}
        <TitledCard title="Cuenta" id="account-card">
          <Flex direction="column" gap="4">
            <ReadOnlyField
              id="account-email"
              label="Correo electrónico"
              value={email}
              testId="account-email"
              hint="Es el correo con el que ingresás."
            />
            <Form method="post" {...getFormProps(passwordForm)}>
              <input type="hidden" name="intent" value="password" />
              <Flex direction="column" gap="4">
                <Text as="p" size="3" weight="bold">
                  Cambiar contraseña
                </Text>
                <FormError errors={passwordForm.errors} id={passwordForm.errorId} />
                {/* The account's e-mail, for password managers. */}
                <input type="text" name="username" autoComplete="username" value={email} readOnly hidden />
                <Field meta={passwordFields.currentPassword} label="Contraseña actual" type="password" autoComplete="current-password" />
                <Field
                  meta={passwordFields.newPassword}
                  label="Nueva contraseña"
                  type="password"
                  autoComplete="new-password"
                  hint={PASSWORD_HINT}
                />
                <Field meta={passwordFields.confirmPassword} label="Repetir contraseña" type="password" autoComplete="new-password" />
                <Button type="submit" size="3" variant="outline" disabled={submitting("password")}>
                  <BiKey aria-hidden="true" /> Cambiar contraseña
                </Button>
              </Flex>
            </Form>
            {/* A plain form to /logout: works without JavaScript; the login screen confirms it with a toast. */}
            <Form method="post" action="/logout" data-testid="logout-everywhere">
              <input type="hidden" name="scope" value="all" />
              <Flex direction="column" gap="2">
                <Text as="p" size="3" weight="bold">
                  Sesiones
                </Text>
                <Text as="p" size="2" color="gray">
                  Cerrá la sesión en todos los navegadores y dispositivos donde ingresaste con tu cuenta, incluido este. Vas a tener que
                  volver a ingresar.
                </Text>
                <Button type="submit" size="3" variant="soft" color="red">
                  <BiLogOut aria-hidden="true" /> Cerrar sesión en todos los dispositivos
                </Button>
              </Flex>
            </Form>
          </Flex>
        </TitledCard>
      </Grid>
    </>
  );
}
