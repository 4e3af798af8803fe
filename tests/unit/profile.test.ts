// The profile mapping (every default) and the uploader's rules.
import { describe, expect, it } from "vitest";
import { parseWithZod } from "@conform-to/zod/v4";
import {
  BLANK_PHOTO,
  IMAGE_ACCEPT,
  IMAGE_MESSAGES,
  MAX_IMAGE_BYTES,
  UPLOAD_HINT,
  UPLOAD_LABEL,
  checkImageFile,
  fileExtension,
  isCuitEditable,
  statusLabel,
  toProfile,
} from "~/lib/profile";
import { passwordChangeSchema, profileSchema } from "~/lib/schemas/profile";

const FULL = {
  businessAddress: "Av. Corrientes 1234, CABA",
  businessName: "Cargas del Sur S.A.",
  cuit: "30712345671",
  phoneNumber: "11 4321-5678",
  photoUrl: "/api/images/" + "a".repeat(64) + ".png",
  status: "ACTIVE",
};

describe("toProfile", () => {
  it("maps every field from the business user", () => {
    expect(toProfile(FULL, { displayName: "Ana", photoUrl: "https://lh3.googleusercontent.com/ana.jpg" })).toEqual({
      address: "Av. Corrientes 1234, CABA",
      cuit: "30712345671",
      name: "Cargas del Sur S.A.",
      phone: "11 4321-5678",
      photo: FULL.photoUrl,
      status: "ACTIVE",
    });
  });

  it("no business user at all: empty strings and the blank photo", () => {
    const empty = { address: "", cuit: "", name: "", phone: "", photo: BLANK_PHOTO, status: "" };
    expect(toProfile(undefined)).toEqual(empty);
    expect(toProfile(null, null)).toEqual(empty);
    expect(toProfile({})).toEqual(empty);
  });

  it("null fields get the same defaults", () => {
    expect(toProfile({ businessAddress: null, businessName: null, cuit: null, phoneNumber: null, photoUrl: null, status: null })).toEqual({
      address: "",
      cuit: "",
      name: "",
      phone: "",
      photo: BLANK_PHOTO,
      status: "",
    });
  });

  it("name: businessName, else the identity provider's display name, else empty", () => {
    expect(toProfile({ businessName: "Empresa" }, { displayName: "Ana" }).name).toBe("Empresa");
    expect(toProfile({ businessName: "" }, { displayName: "Ana" }).name).toBe("Ana");
    expect(toProfile({ businessName: null }, { displayName: "Ana" }).name).toBe("Ana");
    expect(toProfile({ businessName: "   " }, { displayName: "Ana" }).name).toBe("Ana");
    expect(toProfile({}, { displayName: "" }).name).toBe("");
    expect(toProfile({}, {}).name).toBe("");
  });

  it("photo: photoUrl, else the identity provider's photo, else /images/blank.png", () => {
    expect(toProfile({ photoUrl: "/api/images/x.png" }, { photoUrl: "https://idp/p.jpg" }).photo).toBe("/api/images/x.png");
    expect(toProfile({ photoUrl: null }, { photoUrl: "https://idp/p.jpg" }).photo).toBe("https://idp/p.jpg");
    expect(toProfile({ photoUrl: "" }, { photoUrl: "https://idp/p.jpg" }).photo).toBe("https://idp/p.jpg");
    expect(toProfile({ photoUrl: "" }, { photoUrl: "" }).photo).toBe(BLANK_PHOTO);
    expect(toProfile({}, undefined).photo).toBe("/images/blank.png");
  });

  it("address, cuit, phone and status are never taken from elsewhere", () => {
    const p = toProfile(
      { businessAddress: "", cuit: "", phoneNumber: "", status: "" },
      { displayName: "Ana", photoUrl: "https://x/y.png" }
    );
    expect([p.address, p.cuit, p.phone, p.status]).toEqual(["", "", "", ""]);
  });

  it("status labels and the CUIT lock", () => {
    expect(statusLabel("ACTIVE")).toBe("Activa");
    expect(statusLabel("PENDING")).toBe("Verificación pendiente");
    expect(statusLabel("OTRO")).toBe("OTRO");
    expect(isCuitEditable("ACTIVE")).toBe(false);
    expect(isCuitEditable("PENDING")).toBe(true);
    expect(isCuitEditable("")).toBe(true);
  });
});

describe("uploader rules", () => {
  it("has the spec's label, hint, accept list and limit", () => {
    expect(UPLOAD_LABEL).toBe("Cargar foto");
    expect(UPLOAD_HINT).toBe("JPG, JPEG, GIF o PNG permitidos. Tamaño máximo de 800KB.");
    expect(IMAGE_ACCEPT).toBe(".jpeg,.png,.jpg,.gif");
    expect(MAX_IMAGE_BYTES).toBe(819_200);
    expect(IMAGE_MESSAGES).toEqual({
      format: "Formato de archivo no soportado.",
      size: "La imagen excede el tamaño máximo permitido de 800KB.",
      unreadable: "Ocurrió un error al cargar la imagen.",
    });
  });

  it("accepts jpeg, png, jpg and gif, in any case", () => {
    for (const name of ["a.jpeg", "a.png", "a.jpg", "a.gif", "a.PNG", "FOTO.JPG", "x.JpEg", "x.Gif", "mi foto.final.png"]) {
      expect(checkImageFile({ name, size: 10 }), name).toEqual({ ok: true });
    }
  });

  it("refuses any other extension with 'Formato de archivo no soportado.'", () => {
    for (const name of ["a.webp", "a.svg", "a.bmp", "a.png.exe", "png", "a", "a.", ".png.txt", "a.jpgx", "a.heic"]) {
      expect(checkImageFile({ name, size: 10 }), name).toEqual({ ok: false, message: "Formato de archivo no soportado." });
    }
  });

  it("exactly 800*1024 bytes passes; one byte more fails with the size message", () => {
    expect(checkImageFile({ name: "a.jpg", size: 800 * 1024 })).toEqual({ ok: true });
    expect(checkImageFile({ name: "a.jpg", size: 800 * 1024 + 1 })).toEqual({
      ok: false,
      message: "La imagen excede el tamaño máximo permitido de 800KB.",
    });
  });

  it("checks the extension before the size", () => {
    expect(checkImageFile({ name: "huge.webp", size: 5 * 1024 * 1024 })).toEqual({
      ok: false,
      message: "Formato de archivo no soportado.",
    });
  });

  it("reads the extension after the last dot of the base name", () => {
    expect(fileExtension("C:\\fotos\\Logo.PNG")).toBe("png");
    expect(fileExtension("/tmp/a.b/c")).toBe("");
    expect(fileExtension("archivo.tar.gz")).toBe("gz");
    expect(fileExtension(".gif")).toBe("gif");
  });
});

/** The submission's errors (undefined when it succeeded). */
const err = (s: object) => ("error" in s ? (s.error as Record<string, string[]> | null) : undefined) ?? undefined;

const fd = (entries: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(entries)) f.append(k, v);
  return f;
};

describe("profile form schema", () => {
  const valid = { businessName: "Cargas del Sur", businessAddress: "Av. Corrientes 1234", phoneNumber: "11 4321-5678" };

  it("an approved company: the CUIT is not asked for", () => {
    const s = parseWithZod(fd(valid), { schema: profileSchema(false) });
    expect(s.status).toBe("success");
  });

  it("a company not approved yet: the CUIT is required and checked", () => {
    const missing = parseWithZod(fd(valid), { schema: profileSchema(true) });
    expect(missing.status).toBe("error");
    expect(err(missing)?.cuit?.[0]).toBe("Ingresá el CUIT.");
    const bad = parseWithZod(fd({ ...valid, cuit: "30-71234567-2" }), { schema: profileSchema(true) });
    expect(err(bad)?.cuit).toEqual(["El dígito verificador del CUIT no es correcto. Revisá el número."]);
    const ok = parseWithZod(fd({ ...valid, cuit: "30-71234567-1" }), { schema: profileSchema(true) });
    expect(ok.status === "success" && ok.value.cuit).toBe("30712345671");
  });

  it("first failing rule only, one message per field", () => {
    const s = parseWithZod(fd({ businessName: "", businessAddress: "x", phoneNumber: "abc" }), { schema: profileSchema(false) });
    expect(err(s)?.businessName).toEqual(["Ingresá el nombre de la empresa."]);
    expect(err(s)?.businessAddress).toEqual(["Ingresá el domicilio completo (calle, número y localidad)."]);
    expect(err(s)?.phoneNumber).toEqual(["Ingresá un teléfono válido, con código de área (por ejemplo 11 4321-5678)."]);
  });
});

describe("password change schema", () => {
  it("asks for the current password and a new one repeated", () => {
    const s = parseWithZod(fd({}), { schema: passwordChangeSchema });
    expect(err(s)?.currentPassword).toEqual(["Ingresá tu contraseña actual."]);
    expect(err(s)?.newPassword).toEqual(["Elegí una contraseña."]);
    expect(err(s)?.confirmPassword).toEqual(["Repetí la contraseña."]);
  });

  it("a short new password, a mismatch, the same password", () => {
    expect(
      err(parseWithZod(fd({ currentPassword: "x", newPassword: "corta", confirmPassword: "corta" }), { schema: passwordChangeSchema }))
        ?.newPassword
    ).toEqual(["La contraseña debe tener al menos 8 caracteres."]);
    expect(
      err(
        parseWithZod(fd({ currentPassword: "x", newPassword: "Nueva-Clave-1", confirmPassword: "Nueva-Clave-2" }), {
          schema: passwordChangeSchema,
        })
      )?.confirmPassword
    ).toEqual(["Las contraseñas no coinciden."]);
    expect(
      err(
        parseWithZod(fd({ currentPassword: "Misma-Clave-1", newPassword: "Misma-Clave-1", confirmPassword: "Misma-Clave-1" }), {
          schema: passwordChangeSchema,
        })
      )?.newPassword
    ).toEqual(["La nueva contraseña tiene que ser distinta de la actual."]);
    expect(
      parseWithZod(fd({ currentPassword: "Vieja-Clave-1", newPassword: "Nueva-Clave-1", confirmPassword: "Nueva-Clave-1" }), {
        schema: passwordChangeSchema,
      }).status
    ).toBe("success");
  });
});
