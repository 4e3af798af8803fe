import { Link, useRouteLoaderData } from "react-router";
import { Button, Flex, Heading, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";
import { pageMeta } from "~/lib/meta";

export const meta = pageMeta("Términos y condiciones");

export const TERMS_UPDATED = "1 de noviembre de 2026";

function Section({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`tc-${n}`}>
      <Heading as="h2" size="4" id={`tc-${n}`} mt="5" mb="2">
        {n}. {title}
      </Heading>
      {children}
    </section>
  );
}

/**
 * The terms of use of the platform for charging-point operators (CPOs) in Argentina, with the
 * data-protection terms of Ley 25.326 (the operator's account data and the drivers' data it
 * processes through the platform) and the legend the AAIP requires (Disposición DNPDP 10/2008).
 */
export default function TermsConditions() {
  const root = useRouteLoaderData<{ appName?: string }>("root");
  const app = root?.appName ?? "Enchufá";
  return (
    <article className="prose">
      <Heading as="h1" size="6" mb="2">
        Términos y condiciones
      </Heading>
      <Text as="p" size="2" color="gray">
        Última actualización: {TERMS_UPDATED}.
      </Text>

      <TermsAccountSections app={app} />
      <TermsOperatorSections />
      <TermsDataProtectionSection />
      <TermsClosingSections app={app} />

      <Flex mt="6" gap="3" wrap="wrap">
        <Button asChild size="3">
          <Link to="/auth/register">Volver a crear mi cuenta</Link>
        </Button>
        <Button asChild size="3" variant="soft">
          <Link to="/auth/login">Ir al ingreso</Link>
        </Button>
      </Flex>
    </article>
  );
}

/** Sections 1–3: what the terms cover, the words they define, and the operator's account. */
function TermsAccountSections({ app }: { app: string }) {
  return (
    <>
      <Section n={1} title="Objeto y aceptación">
        <p>
          Estos Términos y Condiciones (los «Términos») regulan el acceso y el uso de {app} (la «Plataforma»), un servicio de software
          en la nube para la gestión de estaciones y puntos de carga de vehículos eléctricos, ofrecido por su titular (el «Proveedor») a
          empresas y personas que operan infraestructura de carga en la República Argentina (el «Operador» o «usted»).
        </p>
        <p>
          Al marcar la casilla «Acepto los términos y condiciones» y crear una cuenta, el Operador declara haber leído, entendido y
          aceptado estos Términos y la política de protección de datos personales incluida en ellos. Quien acepta en nombre de una
          persona jurídica declara tener facultades suficientes para obligarla. Si no está de acuerdo, no debe usar la Plataforma.
        </p>
      </Section>

      <Section n={2} title="Definiciones">
        <ul>
          <li>
            <strong>Estación:</strong> el sitio físico donde el Operador instala uno o más cargadores.
          </li>
          <li>
            <strong>Cargador:</strong> el equipo de carga que se comunica con la Plataforma mediante el protocolo OCPP (Open Charge Point
            Protocol).
          </li>
          <li>
            <strong>Conductor:</strong> la persona que usa un cargador del Operador para cargar su vehículo.
          </li>
          <li>
            <strong>Sesión de carga:</strong> cada carga registrada por un cargador, con su energía, duración, tarifa aplicada y
            penalidades.
          </li>
          <li>
            <strong>Tarifa:</strong> los precios que el Operador define por energía (kWh), por tiempo, por sesión y, en su caso, las
            penalidades por inactividad después de finalizada la carga o por reservas no utilizadas.
          </li>
        </ul>
      </Section>

      <Section n={3} title="Cuenta, empresa y verificación">
        <p>
          Para usar la Plataforma el Operador debe registrar una cuenta con un correo electrónico válido, verificarlo mediante el enlace
          que le enviamos y completar los datos de su empresa: razón social, CUIT, domicilio y teléfono. El Operador garantiza que esos
          datos son verdaderos, exactos y actuales, y se obliga a mantenerlos actualizados.
        </p>
        <p>
          El Proveedor puede verificar la información suministrada, incluida la validez del CUIT ante los registros públicos de la
          Agencia de Recaudación y Control Aduanero (ARCA, ex AFIP), y aprobar, rechazar o suspender la cuenta de la empresa cuando la
          información no pueda validarse, sea falsa o se incumplan estos Términos. Mientras la verificación esté pendiente, el acceso a
          las funciones de gestión permanece restringido.
        </p>
        <p>
          Las credenciales de acceso son personales y confidenciales. El Operador es responsable de toda actividad realizada con su
          cuenta y debe avisarnos de inmediato ante cualquier uso no autorizado.
        </p>
      </Section>
    </>
  );
}

/** Sections 4–7: the operator's obligations, payments, the price of the service and its availability. */
function TermsOperatorSections() {
  return (
    <>
      <Section n={4} title="Uso de la Plataforma y obligaciones del Operador">
        <p>El Operador se compromete a:</p>
        <ul>
          <li>
            Cumplir la normativa aplicable a la instalación y operación de infraestructura de carga, incluidas las reglamentaciones de
            seguridad eléctrica (AEA), las habilitaciones municipales y las disposiciones del ente regulador y de la distribuidora que
            correspondan.
          </li>
          <li>
            Informar a los Conductores, de forma clara y previa al inicio de la carga, los precios y penalidades vigentes, conforme a la
            Ley 24.240 de Defensa del Consumidor y sus normas complementarias, y emitir los comprobantes fiscales que correspondan.
          </li>
          <li>
            Conectar a la Plataforma solo cargadores que estén bajo su control y custodiar las credenciales OCPP de cada equipo.
          </li>
          <li>
            No usar la Plataforma para fines ilícitos, no intentar acceder a datos de otros operadores, no interferir con su
            funcionamiento ni realizar ingeniería inversa, pruebas de carga o de intrusión sin autorización escrita.
          </li>
        </ul>
        <p>
          Los precios que cobra el Operador a los Conductores los fija exclusivamente el Operador. La Plataforma calcula importes a
          partir de la tarifa configurada y de las lecturas que informan los cargadores; el Operador debe revisar su configuración y es
          responsable por los importes que cobra.
        </p>
      </Section>

      <Section n={5} title="Pagos y proveedores de pago">
        <p>
          La Plataforma permite vincular cuentas de proveedores de pago (por ejemplo, Mercado Pago o Pagos360) para cobrar las
          sesiones de carga. El Proveedor no es una entidad financiera ni un agente de cobro: los fondos se acreditan directamente en la
          cuenta del Operador en el proveedor elegido, bajo los términos de ese proveedor. Las credenciales de esas cuentas se guardan
          cifradas y se usan solo para procesar los cobros que el Operador habilita.
        </p>
      </Section>

      <Section n={6} title="Precio del servicio">
        <p>
          El uso de la Plataforma puede estar sujeto al pago de un abono o de comisiones según el plan contratado, que se informará
          antes de su aplicación. Los importes se expresan en pesos argentinos e incluyen o discriminan el IVA según corresponda. La
          falta de pago puede dar lugar a la suspensión del servicio, previo aviso por correo electrónico.
        </p>
      </Section>

      <Section n={7} title="Disponibilidad y soporte">
        <p>
          El Proveedor hace esfuerzos razonables para que la Plataforma esté disponible en forma continua, pero no garantiza un
          funcionamiento ininterrumpido ni libre de errores. Pueden producirse interrupciones por mantenimiento, fallas de conectividad
          de los cargadores, de los proveedores de infraestructura en la nube o de terceros. Los mantenimientos programados se avisarán
          con anticipación razonable.
        </p>
      </Section>
    </>
  );
}

/** Section 8: personal data under Ley 25.326, with the legend the AAIP requires. */
function TermsDataProtectionSection() {
  return (
    <>
      <Section n={8} title="Protección de datos personales (Ley 25.326)">
        <p>
          El tratamiento de datos personales se rige por la Ley 25.326 de Protección de los Datos Personales, su Decreto Reglamentario
          1558/2001 y las normas dictadas por la Agencia de Acceso a la Información Pública (AAIP), autoridad de control en la materia.
        </p>
        <p>
          <strong>Datos del Operador.</strong> Respecto de los datos de la cuenta (correo electrónico, razón social, CUIT, domicilio,
          teléfono, foto de perfil y registros de acceso), el Proveedor actúa como responsable de la base de datos. Los usa para crear
          y administrar la cuenta, verificar la empresa, prestar el servicio, comunicarse con el Operador, prevenir fraudes y cumplir
          obligaciones legales. No los cede a terceros salvo a los prestadores que hacen posible el servicio (alojamiento,
          autenticación, envío de correos y notificaciones), obligados a la misma confidencialidad, o cuando lo exija una autoridad
          competente.
        </p>
        <p>
          <strong>Datos de los Conductores.</strong> Respecto de los datos de los Conductores que el Operador trata mediante la
          Plataforma (por ejemplo, identificadores de carga, sesiones, consumos e importes), el Operador es el responsable de la base de
          datos y el Proveedor presta un servicio de tratamiento por cuenta de terceros en los términos del artículo 25 de la Ley
          25.326: trata esos datos solo según las instrucciones del Operador y para prestar el servicio, no los usa para otros fines ni
          los cede, y al terminar la relación los destruye o los devuelve al Operador, salvo que deba conservarlos por obligación legal.
          El Operador garantiza que cuenta con una base legal para ese tratamiento y que informa a los Conductores conforme al
          artículo 6 de la ley.
        </p>
        <p>
          <strong>Seguridad y confidencialidad.</strong> El Proveedor adopta medidas técnicas y organizativas para garantizar la
          seguridad y confidencialidad de los datos (artículos 9 y 10 de la Ley 25.326), entre ellas cifrado en tránsito, cifrado de
          credenciales de pago, control de acceso por empresa y registros de actividad, siguiendo las medidas de seguridad recomendadas
          por la AAIP.
        </p>
        <p>
          <strong>Transferencias internacionales.</strong> Algunos prestadores (por ejemplo, el servicio de autenticación) pueden
          alojar datos fuera de la República Argentina. En esos casos el Proveedor exige niveles de protección adecuados mediante
          cláusulas contractuales u otros mecanismos admitidos por el artículo 12 de la Ley 25.326 y las normas de la AAIP.
        </p>
        <p>
          <strong>Conservación.</strong> Los datos se conservan mientras la cuenta esté activa y, después, durante los plazos que
          exijan las normas fiscales y comerciales o el ejercicio de derechos en un eventual reclamo.
        </p>
        <p>
          <strong>Derechos del titular.</strong> Toda persona puede ejercer sus derechos de acceso, rectificación, actualización y
          supresión de sus datos (artículos 14 a 16 de la Ley 25.326) escribiendo desde el correo registrado al canal de contacto
          indicado en la sección 14. El Proveedor responderá el pedido de acceso dentro de los diez (10) días corridos y los de
          rectificación, actualización o supresión dentro de los cinco (5) días hábiles de recibidos. Los pedidos sobre datos de
          Conductores se derivarán al Operador responsable.
        </p>
        <p>
          El titular de los datos personales tiene la facultad de ejercer el derecho de acceso a los mismos en forma gratuita a
          intervalos no inferiores a seis meses, salvo que se acredite un interés legítimo al efecto conforme lo establecido en el
          artículo 14, inciso 3 de la Ley N° 25.326. La AGENCIA DE ACCESO A LA INFORMACIÓN PÚBLICA, en su carácter de Órgano de Control
          de la Ley N° 25.326, tiene la atribución de atender las denuncias y reclamos que interpongan quienes resulten afectados en sus
          derechos por incumplimiento de las normas vigentes en materia de protección de datos personales.
        </p>
      </Section>
    </>
  );
}

/** Sections 9–14: cookies, intellectual property, liability, suspension, changes and jurisdiction. */
function TermsClosingSections({ app }: { app: string }) {
  return (
    <>
      <Section n={9} title="Cookies">
        <p>
          La Plataforma usa una cookie de sesión estrictamente necesaria para mantener la sesión iniciada y cookies breves para mostrar
          avisos. No usa cookies publicitarias ni de seguimiento de terceros.
        </p>
      </Section>

      <Section n={10} title="Propiedad intelectual">
        <p>
          La Plataforma, su código, diseño, marcas y documentación pertenecen al Proveedor o a sus licenciantes y están protegidos por
          la Ley 11.723 de Propiedad Intelectual y demás normas aplicables. El Operador recibe una licencia de uso limitada, no exclusiva
          e intransferible mientras dure su cuenta. Los datos que el Operador carga en la Plataforma siguen siendo suyos y puede
          exportarlos mientras su cuenta esté activa.
        </p>
      </Section>

      <Section n={11} title="Responsabilidad">
        <p>
          El Proveedor no es responsable por la operación física de los cargadores, por daños a vehículos o personas derivados de la
          instalación o del uso de los equipos del Operador, ni por los precios, cobros o comprobantes que el Operador emita a los
          Conductores. En la medida permitida por la ley, la responsabilidad del Proveedor por daños directos derivados del servicio se
          limita al importe abonado por el Operador en los doce (12) meses anteriores al hecho. Nada de lo anterior limita la
          responsabilidad por dolo o culpa grave.
        </p>
      </Section>

      <Section n={12} title="Suspensión y baja">
        <p>
          El Operador puede solicitar la baja de su cuenta en cualquier momento. El Proveedor puede suspender o dar de baja una cuenta
          ante incumplimientos de estos Términos, uso fraudulento, riesgo para la seguridad de la Plataforma o de terceros, o por
          orden de autoridad competente, informando el motivo al Operador. Tras la baja, el Operador dispondrá de treinta (30) días para
          exportar sus datos, salvo que la baja obedezca a una orden que lo impida.
        </p>
      </Section>

      <Section n={13} title="Modificaciones">
        <p>
          El Proveedor puede modificar estos Términos. Los cambios relevantes se informarán por correo electrónico o dentro de la
          Plataforma con al menos quince (15) días de anticipación. Si el Operador no está de acuerdo, puede dar de baja su cuenta
          antes de que entren en vigencia; si sigue usando la Plataforma, se entenderá que los acepta.
        </p>
      </Section>

      <Section n={14} title="Contacto, ley aplicable y jurisdicción">
        <p>
          Las consultas, reclamos y pedidos sobre datos personales se reciben por el canal de soporte de {app} informado en el correo
          de bienvenida y en el perfil de la cuenta. Estos Términos se rigen por las leyes de la República Argentina. Toda controversia
          se someterá a los tribunales ordinarios competentes de la Ciudad Autónoma de Buenos Aires, sin perjuicio de los derechos que
          la ley reconozca a los consumidores.
        </p>
      </Section>
    </>
  );
}
