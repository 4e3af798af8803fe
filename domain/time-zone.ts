// The operators' default time zone (Buenos Aires, no DST since 2009): days and hours of the
// KPIs, dates on screen. Its own module so pages that only format dates do not bundle pricing.
export const DEFAULT_TIME_ZONE = "America/Argentina/Buenos_Aires";
