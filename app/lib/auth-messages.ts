// The auth forms' limits and messages, without zod: pages import them from here so their first
// load does not pull in zod (the schemas in ./schemas/auth.ts load lazily in the browser).

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** Shown next to every new-password field before the user submits. */
export const PASSWORD_HINT = `Al menos ${PASSWORD_MIN} caracteres.`;

export const messages = {
  emailRequired: "Ingresá tu correo electrónico.",
  emailInvalid: "Ingresá un correo electrónico válido, por ejemplo nombre@empresa.com.ar.",
  passwordRequired: "Ingresá tu contraseña.",
  newPasswordRequired: "Elegí una contraseña.",
  passwordTooShort: `La contraseña debe tener al menos ${PASSWORD_MIN} caracteres.`,
  passwordTooLong: `La contraseña puede tener como máximo ${PASSWORD_MAX} caracteres.`,
  confirmRequired: "Repetí la contraseña.",
  passwordsDiffer: "Las contraseñas no coinciden.",
  termsRequired: "Tenés que aceptar los términos y condiciones para crear tu cuenta.",
  businessNameRequired: "Ingresá la razón social.",
  businessNameShort: "La razón social debe tener al menos 2 caracteres.",
  businessNameLong: "La razón social puede tener como máximo 120 caracteres.",
  cuitRequired: "Ingresá el CUIT.",
  cuitFormat: "El CUIT tiene 11 dígitos: escribilo como 30-71234567-1 o sin guiones.",
  cuitPrefix: "El CUIT debe empezar con un tipo válido (20, 23, 24, 27, 30, 33, 34…).",
  cuitCheckDigit: "El dígito verificador del CUIT no es correcto. Revisá el número.",
  addressRequired: "Ingresá el domicilio.",
  addressShort: "Ingresá el domicilio completo (calle, número y localidad).",
  addressLong: "El domicilio puede tener como máximo 200 caracteres.",
  phoneRequired: "Ingresá un teléfono.",
  phoneInvalid: "Ingresá un teléfono válido, con código de área (por ejemplo 11 4321-5678).",
  oobCodeMissing: "El enlace no es válido. Pedí uno nuevo.",
} as const;
