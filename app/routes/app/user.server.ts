// Server side of 'Mi perfil': reading the company profile, and one handler per form intent
// (the profile with its photo, removing the photo, changing the password). Failures are logged
// in Spanish on the server and, through `logged`, in the browser's console.
import { data } from "react-router";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { BusinessUserDto } from "#contract/dto";
import { endpoints } from "#contract/endpoints";
import { createApiClient, UNREACHABLE_PROBLEM, type ApiClient, type ApiProblem } from "~/lib/api.server";
import { clientKey, identityClient, requireActiveBusiness } from "~/lib/auth.server";
import { identityErrorMessage, isBadCredentials } from "~/lib/identity.server";
import { commitSession, type AppSession, type SessionUser } from "~/lib/session.server";
import { clearLoginFailures, consume, countFailure, loginChecks, retryAfterHeaders } from "~/lib/rate-limit.server";
import { dataWithError, dataWithSuccess, redirectWithSuccess } from "~/lib/toast.server";
import { BLANK_PHOTO, IMAGE_MESSAGES, PHOTO_FIELD, PROFILE_FIELDS, isCuitEditable, profileMessages, toProfile } from "~/lib/profile";
import { imageFormData, readImageUpload } from "~/lib/profile.server";
import { problemReply } from "~/lib/problem-reply";
import { passwordChangeSchema, profileSchema } from "~/lib/schemas/profile";
import { appContext, type RequestContext } from "~/lib/context";
import { MESSAGES, type Intent } from "~/components/profile/messages";

/** Failures to read or update the profile or its photo are logged in Spanish. */
function logFailure(what: string) {
  console.error(`Mi perfil: ${what}`, "");
}

/** "(status: title)" of a refusal, "(error de red)" of a call that never got an answer. */
function why(result: { status: number; problem: ApiProblem }, title = result.problem.title): string {
  return result.problem.type === UNREACHABLE_PROBLEM ? "error de red" : `${result.status}${title ? `: ${title}` : ""}`;
}

export interface ActionResult {
  intent: Intent;
  result?: SubmissionResult<string[]>;
  photoError?: string;
  /** Logged in the browser console too. */
  logged?: string;
  /** The status of the failure (the API's, passed through). */
  status?: number;
}

/** What one action call works with: the signed-in user, the session and its cookie headers, the form. */
export interface ProfileActionInput {
  request: Request;
  context: RequestContext;
  user: SessionUser;
  session: AppSession;
  headers: Headers;
  formData: FormData;
}

/** The company profile as the page shows it; a failed read is logged and shown, never a 500. */
export async function loadProfile(context: RequestContext, user: SessionUser) {
  const identity = { displayName: user.displayName, photoUrl: user.photoUrl };
  const result = await createApiClient(context, user.idToken).call(endpoints.profileGet);
  const business: BusinessUserDto | undefined = result.ok ? result.data : undefined;
  const logged = result.ok ? undefined : `no se pudo obtener el perfil de la empresa (${why(result)})`;
  if (logged) logFailure(logged);
  const profile = toProfile(business, identity);
  return {
    loaded: Boolean(business),
    logged,
    profile,
    email: business?.email || user.email,
    /** The photo stored by the API (the one "Quitar foto" removes); none for the identity's or the blank one. */
    storedPhoto: business?.photoUrl || null,
    cuitEditable: isCuitEditable(profile.status),
  };
}

function withoutFields(formData: FormData, names: string[]): FormData {
  const copy = new FormData();
  for (const [key, value] of formData) if (!names.includes(key) && typeof value === "string") copy.append(key, value);
  return copy;
}

/**
 * An error toast with the API's status passed through. With JavaScript the status goes in the
 * payload and the response is 200: React Router does not revalidate after a 4xx/5xx action, so the
 * root loader would not pick the toast up until the next navigation.
 */
function fail(input: ProfileActionInput, payload: ActionResult, message: string, status: number) {
  const { context, headers } = input;
  return dataWithError<ActionResult>(context, { ...payload, status }, message, { status: appContext(context).isDataRequest ? 200 : status, headers });
}

const PROFILE_FIELD_SET: ReadonlySet<string> = new Set(PROFILE_FIELDS);

/** The photo's upload: its URL, none (no new photo), or the failure to answer with. */
async function uploadPhoto(api: ApiClient, formData: FormData): Promise<{ photoUrl?: string } | { failure: { message: string; status: number; logged?: string; photoError?: string } }> {
  // Checked like the browser does, so a refused image changes nothing.
  const upload = await readImageUpload(formData.getAll(PHOTO_FIELD));
  if (upload.kind === "none") return {};
  if (upload.kind === "error") return { failure: { message: upload.message, status: 400, photoError: upload.message } };
  const result = await api.call(endpoints.profilePictureUpload, { body: imageFormData(upload.image) });
  if (result.ok) return { photoUrl: result.data.photoUrl ?? undefined };
  if (result.problem.type === UNREACHABLE_PROBLEM) {
    return { failure: { message: MESSAGES.unreachable, status: 503, logged: `no se pudo subir la foto de perfil (${why(result)})` } };
  }
  const message = result.problem.errors?.Image?.[0] || result.problem.title || IMAGE_MESSAGES.unreadable;
  return { failure: { message, status: result.status, photoError: message, logged: `no se pudo subir la foto de perfil (${why(result, message)})` } };
}

/** "Guardar cambios": the photo first (a refused image changes nothing), then the company's data. */
export async function saveProfile(input: ProfileActionInput) {
  const { request, context, user, headers, formData } = input;
  const { business } = await requireActiveBusiness(request, context);
  const cuitEditable = isCuitEditable(business.status ?? "");
  const fields = withoutFields(formData, [PHOTO_FIELD, "intent"]);
  if (!cuitEditable) fields.delete("cuit");
  const submission = parseWithZod(fields, { schema: profileSchema(cuitEditable) });
  if (submission.status !== "success") {
    return data<ActionResult>({ intent: "profile", result: submission.reply() }, { status: 400, headers });
  }
  const api = createApiClient(context, user.idToken);
  const photo = await uploadPhoto(api, formData);
  if ("failure" in photo) {
    const { message, status, logged, photoError } = photo.failure;
    if (logged) logFailure(logged);
    return fail(input, { intent: "profile", result: submission.reply(), photoError, logged }, message, status);
  }
  const { businessName, businessAddress, phoneNumber } = submission.value;
  const cuit = cuitEditable ? submission.value.cuit : undefined;
  const body = { businessName, businessAddress, phoneNumber, ...(cuit ? { cuit } : {}), ...(photo.photoUrl ? { photoUrl: photo.photoUrl } : {}) };
  const result = await api.call(endpoints.profileUpdate, { body });
  if (result.ok) return redirectWithSuccess("/user", MESSAGES.saved, { headers });
  if (result.problem.type === UNREACHABLE_PROBLEM) {
    const logged = `no se pudo actualizar el perfil de la empresa (${why(result)})`;
    logFailure(logged);
    return fail(input, { intent: "profile", result: submission.reply(), logged }, MESSAGES.unreachable, 503);
  }
  const { reply, message } = problemReply(submission, result, { fallback: MESSAGES.saveFailed, field: PROFILE_FIELD_SET, firstOnly: true });
  const logged = `no se pudo actualizar el perfil de la empresa (${why(result, message)})`;
  logFailure(logged);
  return fail(input, { intent: "profile", result: reply, logged }, message, result.status);
}

/** "Quitar foto": the stored photo goes; the blank placeholder has nothing to remove. */
export async function removePhoto(input: ProfileActionInput) {
  const { context, user, headers, formData } = input;
  const imageUrl = String(formData.get("imageUrl") ?? "").trim();
  if (!imageUrl || imageUrl === BLANK_PHOTO) return redirectWithSuccess("/user", MESSAGES.photoRemoved, { headers });
  const result = await createApiClient(context, user.idToken).call(endpoints.profilePictureDelete, { body: { imageUrl } });
  if (result.ok) return redirectWithSuccess("/user", MESSAGES.photoRemoved, { headers });
  const unreachable = result.problem.type === UNREACHABLE_PROBLEM;
  const message = unreachable ? MESSAGES.unreachable : result.problem.title || MESSAGES.photoRemoveFailed;
  const logged = `no se pudo quitar la foto de perfil (${why(result, message)})`;
  logFailure(logged);
  return fail(input, { intent: "remove-photo", logged }, message, unreachable ? 503 : result.status);
}

const PASSWORD_FIELDS = ["currentPassword", "newPassword", "confirmPassword"];

function passwordFailure(input: ProfileActionInput, error: unknown, result: SubmissionResult<string[]>, status = 503) {
  const code = error instanceof Error && "code" in error ? String((error as { code: unknown }).code) : "desconocido";
  const logged = `no se pudo cambiar la contraseña (${code})`;
  logFailure(logged);
  const message = result.error?.[""]?.[0] ?? identityErrorMessage(error).message;
  return fail(input, { intent: "password", result, logged }, message, status);
}

/** "Cambiar contraseña": the current one checked like a sign-in (with the login's limits), then the change. */
export async function changePassword(input: ProfileActionInput) {
  const { context, user, session, headers, formData } = input;
  const hideFields = PASSWORD_FIELDS;
  const submission = parseWithZod(withoutFields(formData, ["intent"]), { schema: passwordChangeSchema });
  if (submission.status !== "success") {
    return data<ActionResult>({ intent: "password", result: submission.reply({ hideFields }) }, { status: 400, headers });
  }
  const checks = loginChecks(user.email, clientKey(context));
  const limited = await consume(checks, { count: false });
  if (limited) {
    const refused = new Headers(headers);
    for (const [name, value] of Object.entries(retryAfterHeaders(limited))) refused.set(name, value);
    return data<ActionResult>({ intent: "password", result: submission.reply({ formErrors: [limited.message], hideFields }) }, { status: 429, headers: refused });
  }
  const { currentPassword, newPassword } = submission.value;
  const identity = identityClient(context);
  let idToken: string;
  try {
    const signedIn = await identity.signInWithPassword(user.email, currentPassword);
    if (signedIn.uid !== user.uid) {
      return data<ActionResult>({ intent: "password", result: submission.reply({ formErrors: [MESSAGES.sessionMismatch], hideFields }) }, { status: 400, headers });
    }
    idToken = signedIn.idToken;
  } catch (error) {
    if (isBadCredentials(error)) {
      await countFailure(checks);
      const fieldErrors = { currentPassword: [profileMessages.currentPasswordWrong] };
      return data<ActionResult>({ intent: "password", result: submission.reply({ fieldErrors, hideFields }) }, { status: 400, headers });
    }
    return passwordFailure(input, error, submission.reply({ formErrors: [identityErrorMessage(error).message], hideFields }));
  }
  try {
    // Firebase revokes older sessions on a password change: keep this one with new tokens.
    // The tokens the change returns carry the time of the last sign-in (auth_time); when that
    // fell in an earlier second than the change, the revocation check refuses them and the
    // next page signed the user out. A sign-in with the new password dates them after it.
    const changed = await identity.changePassword(idToken, newPassword);
    const fresh = await identity.signInWithPassword(user.email, newPassword).catch(() => changed);
    session.set("user", { ...user, idToken: fresh.idToken, refreshToken: fresh.refreshToken, expiresAt: fresh.expiresAt });
  } catch (error) {
    const { field, message } = identityErrorMessage(error);
    const reply =
      field === "password" ? submission.reply({ fieldErrors: { newPassword: [message] }, hideFields }) : submission.reply({ formErrors: [message], hideFields });
    return passwordFailure(input, error, reply, field === "password" ? 400 : 503);
  }
  await clearLoginFailures(user.email, clientKey(context));
  const cookie = { "Set-Cookie": await commitSession(session) };
  // Without JavaScript, go through a redirect: the layout loader of this same response would
  // still hold the old (now revoked) token and sign the user out.
  if (!appContext(context).isDataRequest) return redirectWithSuccess("/user", MESSAGES.passwordChanged, { headers: cookie });
  return dataWithSuccess<ActionResult>(context, { intent: "password", result: submission.reply({ resetForm: true }) }, MESSAGES.passwordChanged, { headers: cookie });
}
