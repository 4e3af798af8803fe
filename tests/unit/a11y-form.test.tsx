// After a failed submit without JavaScript the server's HTML must send the focus to the first
// invalid field: every invalid field carries `autofocus` (the browser focuses the first one in
// the document), with aria-invalid and aria-describedby naming its error; valid fields carry none.
import { describe, expect, it } from "vitest";
import { renderToString } from "react-dom/server";
import { useForm, type SubmissionResult } from "@conform-to/react";
import { Field } from "~/components/form";
import { withAutoFocus } from "~/lib/autofocus";

function LoginLike({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [, fields] = useForm({ id: "f", lastResult });
  return (
    <form>
      <Field meta={fields.name} label="Nombre" />
      <Field meta={fields.email} label="Correo electrónico" type="email" />
      <Field meta={fields.phone} label="Teléfono" type="tel" />
    </form>
  );
}

const failed: SubmissionResult<string[]> = {
  status: "error",
  initialValue: { name: "Ana", email: "x", phone: "" },
  error: { email: ["Ingresá un correo válido."], phone: ["Este campo es obligatorio."] },
};

function input(html: string, name: string) {
  const match = html.match(new RegExp(`<input[^>]*name="${name}"[^>]*>`));
  expect(match, name).not.toBeNull();
  return match![0];
}

describe("first invalid field without JavaScript", () => {
  it("marks each invalid field autofocus, aria-invalid and described by its error", () => {
    const html = renderToString(<LoginLike lastResult={failed} />);
    expect(input(html, "name")).not.toContain("autofocus");
    expect(input(html, "name")).not.toContain('aria-invalid="true"');
    for (const name of ["email", "phone"]) {
      const tag = input(html, name);
      expect(tag).toContain('autofocus=""');
      expect(tag).toContain('aria-invalid="true"');
      const errorId = tag.match(/aria-describedby="([^"]+)"/)![1].split(" ")[0];
      expect(html).toContain(`id="${errorId}"`);
    }
    // The first autofocus in the document is the first invalid field.
    expect(html.indexOf("autofocus")).toBe(html.indexOf(input(html, "email")) + input(html, "email").indexOf("autofocus"));
  });

  it("adds nothing before a submit, nor on the client (conform moves the focus there)", () => {
    const html = renderToString(<LoginLike />);
    expect(html).not.toContain("autofocus");
    const g = globalThis as { document?: unknown };
    g.document = {};
    try {
      expect(withAutoFocus({ errors: ["x"] }, { id: "a" })).toEqual({ id: "a" });
    } finally {
      delete g.document;
    }
    expect(withAutoFocus({ errors: ["x"] }, { id: "a" })).toEqual({ id: "a", autoFocus: true });
    expect(withAutoFocus({ errors: [] }, { id: "a" })).toEqual({ id: "a" });
  });
});
