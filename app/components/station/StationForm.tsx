// The station form of 'Nueva estación' and 'Editar estación': a plain POST form that works
// without JavaScript, enhanced with conform (validation on blur/change) and, with a maps key,
// with Google's address search and a map with a draggable marker.
import { FormToken } from "~/components/FormToken";
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { useHydrated } from "~/lib/hydrated";
import { Form, Link, useNavigation } from "react-router";
import { CheckboxField, Field, FieldError, VALIDATE_ON } from "~/components/form";
import { withAutoFocus } from "~/lib/autofocus";
import { FormError, InfoMessage } from "~/components/messages";
import { ReadOnlyFieldset } from "~/components/ReadOnly";
import { getCollectionProps, getFormProps, getInputProps, getSelectProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { Button, Card, Flex, Grid, Heading, Text } from "@radix-ui/themes";
import { BiPlus, BiTrash } from "~/icons";
import type { ServiceDto } from "#contract/dto";
import { ARGENTINA_TIME_ZONES, PARKING_TYPE_LABELS, PARKING_TYPES, WEEKDAY_LABELS } from "#contract/schemas/station-constants";
import { PROVINCES } from "#domain/provinces";
import { AUTHORIZATION_POLICIES, AUTHORIZATION_POLICY_LABELS } from "#domain/authorization";
import { PhotoUploader } from "~/components/PhotoUploader";
import { isInArgentina, MAPS_FAILED_NOTICE, OUTSIDE_ARGENTINA_WARNING, validPosition, type LatLng } from "~/lib/maps";
import { useLazyValidation } from "~/components/lazy-validation";
import { MAX_PERIODS_PER_DAY, type stationFormDefaults } from "./form-values";
import type { PlaceResult } from "./LocationMap.client";

// Loaded only here, only in the browser, only with a key: other screens never download it.
const LocationMap = lazy(() => import("./LocationMap.client"));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, string[]>;

/** What people read for an IANA zone (the id stays as it is: it is what is saved), with its accents. */
const ZONE_ACCENTS: Record<string, string> = { Cordoba: "Córdoba", Tucuman: "Tucumán", Rio_Gallegos: "Río Gallegos" };
export function timeZoneLabel(tz: string): string {
  if (tz === "America/Argentina/Buenos_Aires") return "Buenos Aires (hora de Argentina)";
  const city = tz.replace("America/Argentina/", "");
  return ZONE_ACCENTS[city] ?? city.replace(/_/g, " ");
}

/** A native select (it posts without JavaScript) with its label and first error. */
export function SelectField({ meta, label, children, hint }: { meta: AnyField; label: string; children: ReactNode; hint?: string }) {
  const hintId = hint ? `${meta.id}-hint` : undefined;
  const { key: _key, ...props } = withAutoFocus(meta, getSelectProps(meta, { ariaDescribedBy: hintId })) as ReturnType<typeof getSelectProps> & { key?: string };
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={meta.id} size="2" weight="medium">
        {label}
      </Text>
      <select {...props} className="field-select">
        {children}
      </select>
      {hint ? (
        <Text id={hintId} size="1" color="gray">
          {hint}
        </Text>
      ) : null}
      <FieldError meta={meta} />
    </Flex>
  );
}

/** Set a field's value from code (map, address search) the way typing would: conform sees it. */
function setFieldValue(formId: string, name: string, value: string) {
  const form = document.getElementById(formId) as HTMLFormElement | null;
  const el = form?.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null;
  if (!el || !("value" in el)) return;
  el.value = value;
  el.dispatchEvent(new Event("input", { bubbles: true }));
  el.dispatchEvent(new Event("change", { bubbles: true }));
}

export function StationForm({
  id,
  defaultValue,
  lastResult,
  services,
  mapsKey,
  submitLabel,
  formToken,
  readOnly,
}: {
  id: string;
  /** Issue 26: a role that may only look (fields disabled, no save). */
  readOnly?: boolean;
  /** Create forms: the one-time token that makes a double submission create one station. */
  formToken?: string;
  defaultValue: ReturnType<typeof stationFormDefaults>;
  lastResult?: SubmissionResult<string[]> | null;
  services: ServiceDto[];
  mapsKey?: string;
  submitLabel: string;
}) {
  const navigation = useNavigation();
  const onValidate = useLazyValidation(() => import("./schema").then((m) => m.validateStationForm));
  const [form, fields] = useForm({
    id,
    defaultValue,
    lastResult: navigation.state === "idle" ? lastResult : null,
    onValidate,
    ...VALIDATE_ON,
  });
  const busy = navigation.state === "submitting" && navigation.formMethod?.toUpperCase() === "POST";
  const qr = fields.qr.getFieldset();

  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="station-form">
      <FormToken value={formToken} />
      <ReadOnlyFieldset readOnly={readOnly}>
        <Flex direction="column" gap="5">
          <FormError errors={form.errors} id={form.errorId} />

          <Card size="3" asChild>
            <section aria-labelledby={`${id}-general`}>
              <Heading as="h2" size="4" mb="4" id={`${id}-general`}>
                Datos de la estación
              </Heading>
              <Flex direction="column" gap="4">
                <Field meta={fields.name} label="Nombre" hint="Como la van a ver los conductores, por ejemplo «Estación Palermo»." />
                <SelectField meta={fields.parkingType} label="Tipo de estacionamiento">
                  <option value="">Sin especificar</option>
                  {PARKING_TYPES.map((t) => (
                    <option key={t} value={t}>
                      {PARKING_TYPE_LABELS[t]}
                    </option>
                  ))}
                </SelectField>
                <CheckboxField meta={fields.published} onChange={() => form.validate({ name: fields.published.name })}>
                  Publicada: los conductores la ven en el mapa y pueden cargar
                </CheckboxField>
                <SelectField
                  meta={fields.authorizationPolicy}
                  label="Quién puede cargar"
                  hint="Con «Solo tarjetas registradas», los cargadores rechazan las tarjetas RFID que no cargaste en Tarjetas RFID o cuyo grupo no incluye esta estación."
                >
                  {AUTHORIZATION_POLICIES.map((p) => (
                    <option key={p} value={p}>
                      {AUTHORIZATION_POLICY_LABELS[p]}
                    </option>
                  ))}
                </SelectField>
                <Field meta={fields.gridCapacityKw} label="Capacidad de red (kW)" />
              </Flex>
            </section>
          </Card>

          <Card size="3" asChild>
            <section aria-labelledby={`${id}-qr`}>
              <Heading as="h2" size="4" mb="1" id={`${id}-qr`}>
                Cobro con QR
              </Heading>
              <Text as="p" size="2" color="gray" mb="3">
                Los conductores escanean el QR del conector y pagan por adelantado con la cuenta que conectaste en <Link to="/payment">Pagos</Link>; lo que no usan se les devuelve.
              </Text>
              <Flex direction="column" gap="4">
                <CheckboxField meta={qr.enabled}>Cobrar con QR en esta estación (tiene que estar publicada)</CheckboxField>
                <Grid columns={{ initial: "1", sm: "2" }} gap="4">
                  <Field meta={qr.min} label="Pago mínimo ($)" hint="En pesos, IVA incluido." />
                  <Field meta={qr.max} label="Pago máximo ($)" hint="Hasta $ 1.000.000." />
                </Grid>
              </Flex>
            </section>
          </Card>

          <LocationSection formId={form.id} fields={fields} mapsKey={mapsKey} validate={(name) => form.validate({ name })} />

          <Card size="3" asChild>
            <section aria-labelledby={`${id}-services`}>
              <Heading as="h2" size="4" mb="1" id={`${id}-services`}>
                Servicios
              </Heading>
              <Text as="p" size="2" color="gray" mb="3">
                Lo que hay en la estación o muy cerca.
              </Text>
              {services.length === 0 ? (
                <Text size="2" color="gray">
                  No pudimos cargar el catálogo de servicios. Podés guardar la estación y agregarlos después.
                </Text>
              ) : (
                <fieldset className="station-fieldset">
                  <legend className="visually-hidden">Servicios</legend>
                  <div className="station-services">
                    {getCollectionProps(fields.services, { type: "checkbox", options: services.map((s) => s.code) }).map(({ key, ...props }) => (
                      <label key={key} className="station-check">
                        <input {...withAutoFocus(fields.services, props)} />
                        <span>{services.find((s) => s.code === props.value)?.label ?? props.value}</span>
                      </label>
                    ))}
                  </div>
                </fieldset>
              )}
              {fields.services.errors?.[0] ? (
                <Text size="2" color="red" id={fields.services.errorId}>
                  {fields.services.errors[0]}
                </Text>
              ) : null}
            </section>
          </Card>

          <OpeningHours form={form} fields={fields} sectionId={`${id}-hours`} />

          <Card size="3" asChild>
            <section aria-labelledby={`${id}-photo`}>
              <Heading as="h2" size="4" mb="3" id={`${id}-photo`}>
                Foto
              </Heading>
              <input type="hidden" name={fields.photoUrl.name} value={fields.photoUrl.initialValue ?? ""} />
              <PhotoUploader
                name="photo"
                initialImage={fields.photoUrl.initialValue || null}
                alt="Foto de la estación"
                error={form.allErrors.photo?.[0]}
                size={120}
                actions={
                  fields.photoUrl.initialValue ? (
                    <label className="station-check">
                      <input type="checkbox" name="removePhoto" />
                      <span>Quitar la foto</span>
                    </label>
                  ) : null
                }
              />
            </section>
          </Card>

          {readOnly ? null : (
            <Flex gap="3" justify="end" wrap="wrap">
              <Button asChild size="3" variant="soft" color="gray">
                <Link to="/station">Cancelar</Link>
              </Button>
              <Button type="submit" size="3" disabled={busy}>
                {busy ? "Guardando…" : submitLabel}
              </Button>
            </Flex>
          )}
        </Flex>
      </ReadOnlyFieldset>
    </Form>
  );
}

// ---------------------------------------------------------------------------------------------

type Fields = ReturnType<typeof useForm<ReturnType<typeof stationFormDefaults>>>[1];

function LocationSection({ formId, fields, mapsKey, validate }: { formId: string; fields: Fields; mapsKey?: string; validate: (name: string) => void }) {
  const hydrated = useHydrated();
  const [mapFailed, setMapFailed] = useState(false);
  const [rejected, setRejected] = useState(false);
  const position = validPosition(fields.latitude.value, fields.longitude.value);
  const outside = position ? !isInArgentina(position) : false;
  const showMap = Boolean(mapsKey) && hydrated && !mapFailed;

  const setPosition = useCallback(
    (p: LatLng) => {
      setRejected(false);
      setFieldValue(formId, fields.latitude.name, String(p.lat));
      setFieldValue(formId, fields.longitude.name, String(p.lng));
      validate(fields.latitude.name);
      validate(fields.longitude.name);
    },
    [formId, fields.latitude.name, fields.longitude.name, validate],
  );

  const setPlace = useCallback(
    (place: PlaceResult) => {
      setFieldValue(formId, fields.address.name, place.address);
      if (place.city) setFieldValue(formId, fields.city.name, place.city);
      if (place.province) setFieldValue(formId, fields.province.name, place.province);
      if (place.postalCode) setFieldValue(formId, fields.postalCode.name, place.postalCode);
      setPosition(place.position);
      validate(fields.address.name);
    },
    [formId, fields.address.name, fields.city.name, fields.province.name, fields.postalCode.name, setPosition, validate],
  );

  return (
    <Card size="3" asChild>
      <section aria-labelledby={`${formId}-location`}>
        <Heading as="h2" size="4" mb="4" id={`${formId}-location`}>
          Ubicación
        </Heading>
        <Flex direction="column" gap="4">
          <Field
            meta={fields.address}
            label="Dirección"
            autoComplete="off"
            placeholder="Av. Santa Fe 3253"
            hint={showMap ? "Escribí y elegí una sugerencia: completamos la posición en el mapa." : "Calle y número."}
          />
          <Grid columns={{ initial: "1", sm: "3" }} gap="4">
            <Field meta={fields.city} label="Localidad" autoComplete="address-level2" />
            <SelectField meta={fields.province} label="Provincia">
              <option value="">Elegí una provincia</option>
              {PROVINCES.map((p) => (
                <option key={p.code} value={p.code}>
                  {p.name}
                </option>
              ))}
            </SelectField>
            <Field meta={fields.postalCode} label="Código postal (opcional)" autoComplete="postal-code" placeholder="C1425ABC" />
          </Grid>
          {showMap ? (
            <Suspense
              fallback={
                <div className="station-map station-map-loading" role="status">
                  Cargando el mapa…
                </div>
              }
            >
              <LocationMap
                apiKey={mapsKey!}
                position={position}
                addressInputId={fields.address.id}
                onPosition={setPosition}
                onPlace={setPlace}
                onRejected={() => setRejected(true)}
                onFailed={() => setMapFailed(true)}
              />
            </Suspense>
          ) : null}
          {mapsKey && mapFailed ? (
            <InfoMessage color="amber" testId="maps-failed">
              {MAPS_FAILED_NOTICE}
            </InfoMessage>
          ) : null}
          {rejected ? (
            <Text size="2" color="red" role="alert">
              Esa posición no es válida. Elegí un punto dentro del mapa.
            </Text>
          ) : null}
          <Grid columns={{ initial: "1", sm: "2" }} gap="4">
            <CoordinateField meta={fields.latitude} label="Latitud" hint="Entre -90 y 90. Ej.: -34,6037" />
            <CoordinateField meta={fields.longitude} label="Longitud" hint="Entre -180 y 180. Ej.: -58,3816" />
          </Grid>
          {outside ? (
            <InfoMessage color="amber" testId="outside-argentina">
              {OUTSIDE_ARGENTINA_WARNING}
            </InfoMessage>
          ) : null}
          <SelectField meta={fields.timeZone} label="Zona horaria">
            {ARGENTINA_TIME_ZONES.map((tz) => (
              <option key={tz} value={tz}>
                {timeZoneLabel(tz)}
              </option>
            ))}
          </SelectField>
        </Flex>
      </section>
    </Card>
  );
}

function CoordinateField({ meta, label, hint }: { meta: AnyField; label: string; hint: string }) {
  const hintId = `${meta.id}-hint`;
  const { key: _key, ...input } = withAutoFocus(meta, getInputProps(meta, { type: "text", ariaDescribedBy: hintId })) as ReturnType<typeof getInputProps> & { key?: string };
  return (
    <Flex direction="column" gap="1">
      <Text as="label" htmlFor={meta.id} size="2" weight="medium">
        {label}
      </Text>
      <input {...input} inputMode="decimal" autoComplete="off" spellCheck={false} className="station-input" />
      <Text id={hintId} size="1" color="gray">
        {hint}
      </Text>
      <FieldError meta={meta} />
    </Flex>
  );
}

// ---------------------------------------------------------------------------------------------

type FormMeta = ReturnType<typeof useForm<ReturnType<typeof stationFormDefaults>>>[0];

function OpeningHours({ form, fields, sectionId }: { form: FormMeta; fields: Fields; sectionId: string }) {
  const hydrated = useHydrated();
  const hours = fields.hours.getFieldset();
  const mode = hours.mode.value ?? hours.mode.initialValue ?? "ALWAYS";
  const days = hours.days.getFieldList();
  const modeError = hours.mode.errors?.[0];
  // Without JavaScript both choices and the week are always visible.
  const showWeek = !hydrated || mode === "WEEKLY";
  // Choosing "per day" does not complain before anything could be typed; once the error is
  // shown, it is checked again as the periods are filled in.
  const revalidate = () => form.validate({ name: hours.mode.name });
  // Nor on blur: conform listens on the document, so the choice's focusout stops at its fieldset
  // (otherwise leaving it for the submit button shows the error and moves the button mid-click).
  const choice = useRef<HTMLFieldSetElement>(null);
  useEffect(() => {
    const el = choice.current;
    const stop = (e: FocusEvent) => e.stopPropagation();
    el?.addEventListener("focusout", stop);
    return () => el?.removeEventListener("focusout", stop);
  }, []);

  return (
    <Card size="3" asChild>
      <section aria-labelledby={sectionId}>
        <Heading as="h2" size="4" mb="3" id={sectionId}>
          Horarios
        </Heading>
        <fieldset ref={choice} className="station-fieldset" aria-describedby={modeError ? hours.mode.errorId : undefined}>
          <legend className="visually-hidden">Horario de atención</legend>
          <Flex gap="5" wrap="wrap" mb="3">
            {(["ALWAYS", "WEEKLY"] as const).map((value) => {
              const { key: _key, ...radio } = withAutoFocus(hours.mode, getInputProps(hours.mode, { type: "radio", value })) as ReturnType<typeof getInputProps> & { key?: string };
              return (
                <label key={value} className="station-check">
                  <input
                    {...radio}
                    id={`${hours.mode.id}-${value}`}
                    onChange={modeError ? revalidate : undefined}
                  />
                  <span>{value === "ALWAYS" ? "Abierta las 24 horas, todos los días" : "Horarios por día"}</span>
                </label>
              );
            })}
          </Flex>
        </fieldset>
        {modeError ? (
          <Text as="p" size="2" color="red" id={hours.mode.errorId} data-testid="hours-error" mb="2">
            {modeError}
          </Text>
        ) : null}
        {/* Hidden, not removed, while 24 h is chosen: the week keeps what was typed. */}
        <div className="station-week" data-testid="opening-week" hidden={!showWeek}>
            {!hydrated ? (
              <Text as="p" size="2" color="gray" mb="2">
                Si elegiste «Horarios por día», completá las franjas de cada día. Un día sin franjas queda cerrado.
              </Text>
            ) : (
              <Text as="p" size="2" color="gray" mb="2">
                Un día sin franjas queda cerrado. Podés cargar hasta {MAX_PERIODS_PER_DAY} franjas por día (por ejemplo, de 8 a 13 y de 16 a 20).
              </Text>
            )}
            {days.map((day, d) => {
              const periodsMeta = day.getFieldset().periods;
              const periods = periodsMeta.getFieldList();
              const label = WEEKDAY_LABELS[d] ?? `día ${d + 1}`;
              return (
                <div key={day.key} className="station-day" role="group" aria-label={label}>
                  <Text as="div" size="2" weight="medium" className="station-day-name">
                    {label[0].toUpperCase() + label.slice(1)}
                  </Text>
                  <div className="station-periods">
                    {periods.map((period, i) => {
                      const p = period.getFieldset();
                      const error = p.begin.errors?.[0] ?? p.end.errors?.[0];
                      const errorId = p.begin.errors?.[0] ? p.begin.errorId : p.end.errorId;
                      return (
                        <div key={period.key} className="station-period">
                          <Flex gap="2" align="end" wrap="wrap">
                            <TimeInput meta={p.begin} visibleLabel="Apertura" label={`${label}, franja ${i + 1}: apertura`} onBlur={modeError ? revalidate : undefined} />
                            <TimeInput meta={p.end} visibleLabel="Cierre" label={`${label}, franja ${i + 1}: cierre`} onBlur={modeError ? revalidate : undefined} />
                            {periods.length > 1 ? (
                              <Button
                                {...form.remove.getButtonProps({ name: periodsMeta.name, index: i })}
                                variant="ghost"
                                color="gray"
                                size="1"
                                aria-label={`Quitar la franja ${i + 1} del ${label}`}
                              >
                                <BiTrash aria-hidden="true" />
                              </Button>
                            ) : null}
                          </Flex>
                          {error ? (
                            <Text size="1" color="red" id={errorId}>
                              {error}
                            </Text>
                          ) : null}
                        </div>
                      );
                    })}
                    {periods.length < MAX_PERIODS_PER_DAY ? (
                      <Button
                        {...form.insert.getButtonProps({ name: periodsMeta.name, defaultValue: { begin: "", end: "" } })}
                        variant="ghost"
                        size="1"
                        aria-label={`Agregar una franja al ${label}`}
                      >
                        <BiPlus aria-hidden="true" /> Franja
                      </Button>
                    ) : null}
                  </div>
                </div>
              );
            })}
        </div>
      </section>
    </Card>
  );
}

// The visible word ("Apertura") is the field's label; the accessible name adds the day and the
// slot, which a screen reader user cannot see from the layout (and keeps the visible word in it).
function TimeInput({ meta, visibleLabel, label, onBlur }: { meta: AnyField; visibleLabel: string; label: string; onBlur?: () => void }) {
  const { key: _key, ...input } = withAutoFocus(meta, getInputProps(meta, { type: "time" })) as ReturnType<typeof getInputProps> & { key?: string };
  return (
    <label className="station-time-field">
      <span className="station-time-label" aria-hidden="true">
        {visibleLabel}
      </span>
      <input {...input} aria-label={label} className="station-input station-time" step={60} onBlur={onBlur} />
    </label>
  );
}
