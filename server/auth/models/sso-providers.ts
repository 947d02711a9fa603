// The companies' identity providers for SAML 2.0 single sign-on (GoTrue's sso_providers, with
// their saml_providers and sso_domains): found by id, resource id, email domain or SAML entity
// id; made, changed and deleted by the admin API; shown as GoTrue's SSOProvider JSON.
import type { Queryable } from "../../db/database.ts";
import type { AttributeMapping } from "../sso/assertion.ts";

export type SsoProviderRow = {
  id: string;
  resource_id: string | null;
  disabled: boolean | null;
  created_at: Date;
  updated_at: Date;
  entity_id: string;
  metadata_xml: string;
  metadata_url: string | null;
  attribute_mapping: AttributeMapping;
  name_id_format: string | null;
  /** When the SAML side (its metadata) last changed. */
  saml_updated_at: Date;
  domains: string[];
};

const SELECT = `SELECT p.id, p.resource_id, p.disabled, p.created_at, p.updated_at, s.entity_id,
    s.metadata_xml, s.metadata_url, s.attribute_mapping, s.name_id_format,
    s.updated_at AS saml_updated_at,
    coalesce((SELECT array_agg(d.domain ORDER BY d.created_at, d.domain) FROM auth.sso_domains d
      WHERE d.sso_provider_id = p.id), '{}') AS domains
  FROM auth.sso_providers p JOIN auth.saml_providers s ON s.sso_provider_id = p.id`;

async function one(q: Queryable, where: string, value: string) {
  const [row] = await q.query<SsoProviderRow>(`${SELECT} WHERE ${where}`, [value]);
  return row;
}

export const findSsoProvider = (q: Queryable, id: string) => one(q, "p.id = $1", id);

export const findSsoProviderByResourceId = (q: Queryable, resourceId: string) =>
  one(q, "lower(p.resource_id) = lower($1)", resourceId);

export const findSsoProviderByEntityId = (q: Queryable, entityId: string) =>
  one(q, "s.entity_id = $1", entityId);

export const findSsoProviderByDomain = (q: Queryable, domain: string) =>
  one(q, "p.id = (SELECT sso_provider_id FROM auth.sso_domains WHERE domain = lower($1))", domain);

/**
 * Every provider, or those of a resource id (exact, or by its beginning): GoTrue's list filter.
 * The exact one seeks the resource id's index (lower-case) and keeps only the exact match; the
 * others read the whole table: the admin's list of a company's few providers.
 */
export async function listSsoProviders(
  q: Queryable,
  filter: { resourceId?: string; resourceIdPrefix?: string },
): Promise<SsoProviderRow[]> {
  if (filter.resourceId)
    return q.query(
      `${SELECT} WHERE lower(p.resource_id) = lower($1) AND p.resource_id = $1 ORDER BY p.created_at`,
      [filter.resourceId],
    );
  if (filter.resourceIdPrefix)
    return q.query(
      `${SELECT} /* whole table: the admin's list of a few providers */
       WHERE starts_with(p.resource_id, $1) ORDER BY p.created_at`,
      [filter.resourceIdPrefix],
    );
  return q.query(`${SELECT} /* whole table: the admin's list of a few providers */
    ORDER BY p.created_at`);
}

export type SsoProviderFields = {
  entityId: string;
  metadataXml: string;
  metadataUrl: string | null;
  attributeMapping: AttributeMapping;
  nameIdFormat: string | null;
  resourceId: string | null;
  disabled: boolean | null;
};

export async function createSsoProvider(
  q: Queryable,
  fields: SsoProviderFields,
  domains: string[],
): Promise<SsoProviderRow> {
  const [provider] = await q.query<{ id: string }>(
    "INSERT INTO auth.sso_providers (resource_id, disabled) VALUES ($1, $2) RETURNING id",
    [fields.resourceId, fields.disabled],
  );
  const id = provider!.id;
  await writeProvider(q, id, fields, domains);
  return (await findSsoProvider(q, id))!;
}

/** A provider's fields and domains as they now are (the admin API's update, decided by it). */
export async function updateSsoProvider(
  q: Queryable,
  id: string,
  fields: SsoProviderFields,
  domains: string[],
): Promise<SsoProviderRow> {
  await q.query(
    "UPDATE auth.sso_providers SET resource_id = $2, disabled = $3, updated_at = now() WHERE id = $1",
    [id, fields.resourceId, fields.disabled],
  );
  await writeProvider(q, id, fields, domains);
  return (await findSsoProvider(q, id))!;
}

/**
 * The SAML side and the domains of a provider as given (its entity id never changes; the side's
 * updated_at moves only with its metadata, for the staleness of metadata fetched from a URL).
 */
async function writeProvider(
  q: Queryable,
  id: string,
  fields: SsoProviderFields,
  domains: string[],
) {
  await q.query(
    `INSERT INTO auth.saml_providers AS s (sso_provider_id, entity_id, metadata_xml, metadata_url,
       attribute_mapping, name_id_format) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (sso_provider_id) DO UPDATE SET metadata_xml = excluded.metadata_xml,
       metadata_url = excluded.metadata_url, attribute_mapping = excluded.attribute_mapping,
       name_id_format = excluded.name_id_format,
       updated_at = CASE WHEN s.metadata_xml IS DISTINCT FROM excluded.metadata_xml
         THEN now() ELSE s.updated_at END`,
    [
      id,
      fields.entityId,
      fields.metadataXml,
      fields.metadataUrl,
      JSON.stringify(fields.attributeMapping),
      fields.nameIdFormat,
    ],
  );
  await setDomains(q, id, domains);
}

async function setDomains(q: Queryable, id: string, domains: string[]) {
  await q.query(
    "DELETE FROM auth.sso_domains WHERE sso_provider_id = $1 AND NOT domain = ANY($2::text[])",
    [id, domains],
  );
  await q.query(
    `INSERT INTO auth.sso_domains (sso_provider_id, domain)
     SELECT $1, d FROM unnest($2::text[]) AS d WHERE NOT EXISTS (
       SELECT 1 FROM auth.sso_domains WHERE sso_provider_id = $1 AND domain = d
     )`,
    [id, domains],
  );
}

/** Metadata fetched anew from the provider's metadata URL. */
export async function refreshSsoMetadata(q: Queryable, id: string, metadataXml: string) {
  await q.query(
    "UPDATE auth.saml_providers SET metadata_xml = $2, updated_at = now() WHERE sso_provider_id = $1",
    [id, metadataXml],
  );
}

export async function deleteSsoProvider(q: Queryable, id: string): Promise<void> {
  await q.query("DELETE FROM auth.sso_providers WHERE id = $1", [id]);
}

export const isEnabled = (provider: SsoProviderRow) => provider.disabled !== true;

/** GoTrue's SSOProvider JSON (the list leaves out the metadata XML). */
export function serializeSsoProvider(provider: SsoProviderRow, withXml = true) {
  return {
    id: provider.id,
    ...(provider.resource_id !== null ? { resource_id: provider.resource_id } : {}),
    disabled: provider.disabled,
    saml: {
      entity_id: provider.entity_id,
      ...(withXml ? { metadata_xml: provider.metadata_xml } : {}),
      ...(provider.metadata_url !== null ? { metadata_url: provider.metadata_url } : {}),
      attribute_mapping: provider.attribute_mapping,
      ...(provider.name_id_format !== null ? { name_id_format: provider.name_id_format } : {}),
    },
    domains: provider.domains.map((domain) => ({ domain })),
    created_at: provider.created_at.toISOString(),
    updated_at: provider.updated_at.toISOString(),
  };
}
