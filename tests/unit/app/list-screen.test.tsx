// The shared list screen as the server renders it (what a browser without JavaScript gets): the
// empty state stands instead of the filters; the filter bar is a GET form that keeps the sort; no
// row shows the no-match state; delete links keep the list's URL; the station's confirmation posts
// the intent and hidden values its action asks for.
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { ListScreen, RowActions, useListDelete } from "~/components/list/ListScreen";
import { ListTable } from "~/components/list/ListTable";
import { SelectFilter } from "~/components/list/fields";
import { DeleteStationConfirm } from "~/components/station/DeleteStation";
import type { ComponentProps, ReactNode } from "react";

function render(element: ReactNode, url = "/x") {
  const router = createMemoryRouter([{ path: "/x", element }], { initialEntries: [url] });
  return renderToStaticMarkup(<RouterProvider router={router} />);
}

function Screen(props: Partial<ComponentProps<typeof ListScreen>>) {
  const del = useListDelete(true);
  return (
    <ListScreen
      title="Cosas"
      filters={{ label: "Buscar cosas", keep: { sort: "-name" }, fields: <SelectFilter id="f" label="Estado" name="status" defaultValue="b" options={[["", "Todos"], ["b", "Bien"]]} /> }}
      pagination={{ page: 2, pageSize: 20, total: 45 }}
      {...props}
    >
      <ListTable caption="Cosas" className="tag-table" head={<th>Nombre</th>}>
        <tr>
          <td>
            <RowActions name="Uno" editTo="/x/edit/1" deleteTo={del.deleteHref("1")} />
          </td>
        </tr>
      </ListTable>
    </ListScreen>
  );
}

describe("list screen", () => {
  it("results: title, a GET search form keeping the sort, the table, row actions on the same list, pagination", () => {
    const html = render(<Screen />, "/x?status=b&page=2");
    expect(html).toContain(">Cosas</h1>");
    expect(html).toMatch(/<form[^>]*method="get"[^>]*role="search"[^>]*aria-label="Buscar cosas"/);
    expect(html).toContain('<input type="hidden" name="sort" value="-name"/>');
    expect(html).toMatch(/<option value="b" selected="">Bien<\/option>/);
    expect(html).toContain('<div class="tag-table"><div class="table-scroll">');
    expect(html).toContain('<caption class="visually-hidden">Cosas</caption>');
    expect(html).toContain('aria-label="Eliminar Uno"');
    expect(html).toContain('href="/x?status=b&amp;page=2&amp;delete=1"');
    expect(html).toContain('aria-label="Paginación"');
  });

  it("nothing yet: the empty state instead of the filters and the table", () => {
    const html = render(<Screen empty={<p>Nada todavía</p>} />);
    expect(html).toContain("Nada todavía");
    expect(html).not.toContain('role="search"');
    expect(html).not.toContain("<table");
  });

  it("no match: the filters stay, the rows and the pagination give way", () => {
    const html = render(<Screen noMatch={<p>Sin coincidencias</p>} />);
    expect(html).toContain('role="search"');
    expect(html).toContain("Sin coincidencias");
    expect(html).not.toContain("<table");
    expect(html).not.toContain("Paginación");
  });

  it("the confirmation stands under the title; a refused delete without it is an alert", () => {
    expect(render(<Screen confirm={<p>¿Seguro?</p>} deleteError="No se pudo" />)).toMatch(/<\/h1>.*¿Seguro\?/);
    expect(render(<Screen deleteError="No se pudo" deleteErrorTestId="e" />)).toMatch(/role="alert" data-testid="e"[^>]*>No se pudo/);
  });

  it("the station's confirmation posts delete-confirmed with its name and where to go back", () => {
    const html = render(<DeleteStationConfirm station={{ id: "s1", name: "Palermo", chargerCount: 1 }} returnTo="/station?q=p" cancelTo="/station/edit/s1" />);
    expect(html).toContain('data-testid="confirm-delete"');
    expect(html).toContain("¿Eliminar «Palermo»?");
    expect(html).toContain("Tiene 1 cargador asignado");
    expect(html).toMatch(/<form method="post" action="\/station\?q=p"/);
    expect(html).toContain('<input type="hidden" name="name" value="Palermo"/>');
    expect(html).toContain('<input type="hidden" name="returnTo" value="/station?q=p"/>');
    expect(html).toMatch(/name="intent" value="delete-confirmed"/);
  });
});
