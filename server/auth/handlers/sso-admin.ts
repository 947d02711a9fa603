// The admin API of single sign-on, for the service-role key only, as GoTrue's ssoadmin.go:
// /admin/sso/providers (list, create from metadata XML or a metadata URL with domains, an
// attribute mapping and a NameID format) and /admin/sso/providers/{id or resource_<id>} (get,
// update, delete), with GoTrue's checks in its order and its answers.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { isUniqueViolation, type DatabaseError } from "../../db/database.ts";
import { isUuid } from "../../platform/uuid.ts";
import { authenticateAdmin } from "../authenticate.ts";
import type { AuthContext } from "../context.ts";
import { AuthError, ErrorCode } from "../errors.ts";
import {
  createSsoProvider,
  deleteSsoProvider,
  findSsoProvider,
  findSsoProviderByDomain,
  findSsoProviderByEntityId,
  findSsoProviderByResourceId,
  listSsoProviders,
  serializeSsoProvider,
  updateSsoProvider,
  type SsoProviderFields,
  type SsoProviderRow,
} from "../models/sso-providers.ts";
import { queryParam, readBody, unreadable } from "../request.ts";
import type { AttributeMapping } from "../sso/assertion.ts";
import { parseIdpMetadata } from "../sso/idp-metadata.ts";
import { fetchSamlMetadata, metadataUrlProblem } from "../sso/metadata-url.ts";

const NAME_ID_FORMATS = [
  "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
  "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
  "urn:oasis:names:tc:SAML:2.0:nameid-format:transient",
  "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified",
];

const invalid = (message: string) => new AuthError(400, ErrorCode.validation_failed, message);

/** The body of a create or an update, each field read as GoTrue's decoder reads it. */
type ProviderParams = {
  type: string;
  metadataUrl: string;
  metadataXml: string;
  /** undefined: an update leaves the domains as they are. */
  domains: string[] | undefined;
  /** undefined: an update leaves the mapping as it is. */
  attributeMapping: AttributeMapping | undefined;
  nameIdFormat: string;
  resourceId: string | undefined;
  disabled: boolean | undefined;
};

function readParams(request: FastifyRequest): ProviderParams {
  const body = readBody(request);
  const text = (name: string): string => {
    const value = body[name];
    if (value === undefined || value === null) return "";
    if (typeof value !== "string") throw unreadable(`${name} must be a string`);
    return value;
  };
  const domains = body.domains;
  if (
    domains !== undefined &&
    domains !== null &&
    !(Array.isArray(domains) && domains.every((d) => typeof d === "string"))
  )
    throw unreadable("domains must be an array of strings");
  const disabled = body.disabled;
  if (disabled !== undefined && disabled !== null && typeof disabled !== "boolean")
    throw unreadable("disabled must be a boolean");
  const resourceId = body.resource_id;
  if (resourceId !== undefined && resourceId !== null && typeof resourceId !== "string")
    throw unreadable("resource_id must be a string");
  return {
    type: text("type"),
    metadataUrl: text("metadata_url"),
    metadataXml: text("metadata_xml"),
    domains: Array.isArray(domains) ? domains.map(readDomain) : undefined,
    attributeMapping: readMapping(body.attribute_mapping),
    nameIdFormat: text("name_id_format"),
    resourceId: typeof resourceId === "string" ? resourceId : undefined,
    disabled: typeof disabled === "boolean" ? disabled : undefined,
  };
}

/** A domain as it is kept: lower case; one that cannot be an email's domain is refused. */
function readDomain(value: string): string {
  const domain = value.trim().toLowerCase();
  if (
    domain.length === 0 ||
    domain.length > 253 ||
    !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(domain)
  )
    throw invalid(`SSO domain '${value}' is not a valid domain`);
  return domain;
}

/** GoTrue's SAMLAttributeMapping: `keys`, each with `name`, `names`, `default`, `array`. */
function readMapping(value: unknown): AttributeMapping | undefined {
  if (value === undefined || value === null) return undefined;
  const bad = () => unreadable("attribute_mapping must be an object of keys");
  if (typeof value !== "object" || Array.isArray(value)) throw bad();
  const keys = (value as { keys?: unknown }).keys;
  if (keys === undefined || keys === null) return {};
  if (typeof keys !== "object" || Array.isArray(keys)) throw bad();
  const out: NonNullable<AttributeMapping["keys"]> = {};
  for (const [key, mapper] of Object.entries(keys as Record<string, unknown>)) {
    if (typeof mapper !== "object" || mapper === null || Array.isArray(mapper)) throw bad();
    const { name, names, default: fallback, array } = mapper as Record<string, unknown>;
    if (name !== undefined && typeof name !== "string") throw bad();
    if (names !== undefined && !(Array.isArray(names) && names.every((n) => typeof n === "string")))
      throw bad();
    if (array !== undefined && typeof array !== "boolean") throw bad();
    out[key] = {
      ...(name ? { name } : {}),
      ...(names && (names as string[]).length > 0 ? { names: names as string[] } : {}),
      ...(fallback !== undefined && fallback !== null ? { default: fallback } : {}),
      ...(array ? { array } : {}),
    };
  }
  return { keys: out };
}

/** GoTrue's validate: the type, one source of metadata, an HTTPS URL, a known NameID format. */
function validate(params: ProviderParams, forUpdate: boolean) {
  if (!forUpdate && params.type !== "saml")
    throw invalid("Only 'saml' supported for SSO provider type");
  if (params.metadataUrl && params.metadataXml)
    throw invalid("Only one of metadata_xml or metadata_url needs to be set");
  if (!forUpdate && !params.metadataUrl && !params.metadataXml)
    throw invalid("Either metadata_xml or metadata_url must be set");
  if (params.metadataUrl) {
    const problem = metadataUrlProblem(params.metadataUrl);
    if (problem) throw invalid(problem);
  }
  if (params.nameIdFormat && !NAME_ID_FORMATS.includes(params.nameIdFormat))
    throw invalid(`name_id_format must be unspecified or one of ${NAME_ID_FORMATS.join(", ")}`);
}

/** The metadata given or fetched, and what it says. */
async function metadataOf(params: ProviderParams) {
  const raw = params.metadataXml || (await fetchSamlMetadata(params.metadataUrl));
  return { raw, metadata: parseIdpMetadata(raw) };
}

const notFound = () =>
  new AuthError(404, ErrorCode.sso_provider_not_found, "SSO Identity Provider not found");

export default async function ssoAdmin(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  const { db } = app;
  const onRequest = async (request: FastifyRequest) => {
    await authenticateAdmin(ctx.tokens, request);
  };

  /** GoTrue's loadSSOProvider: by id, or by resource id after `resource_`. */
  async function pathProvider(idp: string): Promise<SsoProviderRow> {
    const provider = idp.startsWith("resource_")
      ? await findSsoProviderByResourceId(db, idp.slice("resource_".length))
      : isUuid(idp)
        ? await findSsoProvider(db, idp.toLowerCase())
        : undefined;
    if (!provider) throw notFound();
    return provider;
  }

  /** A write that lost a race for a unique entity id, domain or resource id. */
  const conflictOf = (err: unknown) => {
    if (isUniqueViolation(err as DatabaseError))
      return new AuthError(
        422,
        ErrorCode.conflict,
        "Updating SSO provider failed, likely due to a conflict. Try again?",
      );
    return err;
  };

  app.get("/admin/sso/providers", { onRequest }, async (request) => {
    const providers = await listSsoProviders(db, {
      resourceId: queryParam(request, "resource_id"),
      resourceIdPrefix: queryParam(request, "resource_id_prefix"),
    });
    return { items: providers.map((p) => serializeSsoProvider(p, false)) };
  });

  app.post("/admin/sso/providers", { onRequest }, async (request, reply) => {
    const params = readParams(request);
    validate(params, false);
    const { raw, metadata } = await metadataOf(params);
    if (await findSsoProviderByEntityId(db, metadata.entityId))
      throw new AuthError(
        422,
        ErrorCode.saml_idp_already_exists,
        `SAML Identity Provider with this EntityID (${metadata.entityId}) already exists`,
      );
    const domains = [...new Set(params.domains ?? [])];
    for (const domain of domains) {
      const holder = await findSsoProviderByDomain(db, domain);
      if (holder)
        throw new AuthError(
          400,
          ErrorCode.sso_domain_already_exists,
          `SSO Domain '${domain}' is already assigned to an SSO identity provider (${holder.id})`,
        );
    }
    const fields: SsoProviderFields = {
      entityId: metadata.entityId,
      metadataXml: raw,
      metadataUrl: params.metadataUrl || null,
      attributeMapping: params.attributeMapping ?? {},
      nameIdFormat: params.nameIdFormat || null,
      resourceId: params.resourceId || null,
      disabled: params.disabled ?? null,
    };
    const provider = await db
      .transaction((tx) => createSsoProvider(tx, fields, domains))
      .catch((err: unknown) => {
        throw conflictOf(err);
      });
    return reply.code(201).send(serializeSsoProvider(provider));
  });

  type IdpParams = { Params: { idp: string } };

  app.get<IdpParams>("/admin/sso/providers/:idp", { onRequest }, async (request) =>
    serializeSsoProvider(await pathProvider(request.params.idp)),
  );

  app.put<IdpParams>("/admin/sso/providers/:idp", { onRequest }, async (request) => {
    const params = readParams(request);
    validate(params, true);
    const provider = await pathProvider(request.params.idp);
    const fields: SsoProviderFields = {
      entityId: provider.entity_id,
      metadataXml: provider.metadata_xml,
      metadataUrl: provider.metadata_url,
      attributeMapping: provider.attribute_mapping,
      nameIdFormat: provider.name_id_format,
      resourceId: provider.resource_id,
      disabled: provider.disabled,
    };
    if (params.metadataXml || params.metadataUrl) {
      const { raw, metadata } = await metadataOf(params);
      if (metadata.entityId !== provider.entity_id)
        throw new AuthError(
          400,
          ErrorCode.saml_entity_id_mismatch,
          `SAML Metadata can be updated only if the EntityID matches for the provider; expected '${provider.entity_id}' but got '${metadata.entityId}'`,
        );
      if (params.metadataUrl) fields.metadataUrl = params.metadataUrl;
      fields.metadataXml = raw;
    }
    const domains = params.domains ? [...new Set(params.domains)] : provider.domains;
    for (const domain of params.domains ?? []) {
      const holder = await findSsoProviderByDomain(db, domain);
      if (holder && holder.id !== provider.id)
        throw new AuthError(
          400,
          ErrorCode.sso_domain_already_exists,
          `SSO domain '${domain}' already assigned to another provider (${holder.id})`,
        );
    }
    if (params.attributeMapping?.keys) fields.attributeMapping = params.attributeMapping;
    // As GoTrue: the NameID format is always the one given, none when none is given.
    fields.nameIdFormat = params.nameIdFormat || null;
    if (params.resourceId !== undefined) fields.resourceId = params.resourceId || null;
    if (params.disabled !== undefined) fields.disabled = params.disabled;
    const updated = await db
      .transaction((tx) => updateSsoProvider(tx, provider.id, fields, domains))
      .catch((err: unknown) => {
        throw conflictOf(err);
      });
    return serializeSsoProvider(updated);
  });

  app.delete<IdpParams>("/admin/sso/providers/:idp", { onRequest }, async (request) => {
    const provider = await pathProvider(request.params.idp);
    await deleteSsoProvider(db, provider.id);
    return serializeSsoProvider(provider);
  });
}
